"""Pages load without a failed request, and the icon they link is a real image (nothing was
linked, so browsers asked for /favicon.ico and got a 404 on every page)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Response

from tests.browser.conftest import LiveServer
from tests.browser.test_journey import shoot

pytestmark = pytest.mark.browser
# The linked icon and the conventional path, each decoded by the browser (0 if missing).
ICON_WIDTHS = """async () => {
    const link = document.querySelector('link[rel=icon]');
    const width = src => new Promise(done => {
        const img = new Image();
        img.onload = () => done(img.naturalWidth);
        img.onerror = () => done(0);
        img.src = src;
    });
    const found = [link ? await width(link.href) : 0, await width('/favicon.ico')];
    document.querySelector('main').insertAdjacentHTML('afterbegin',
        '<img src="/favicon.ico" width="256" height="256" alt=""' +
        ' style="image-rendering: pixelated">');
    return found;
}"""


def test_pages_load_without_a_failed_request(page: Page, live_server: LiveServer) -> None:
    failed: list[str] = []

    def seen(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("response", seen)
    for path in ["/", "/sessions/new", "/questions", "/signup"]:
        page.goto(live_server.url + path, wait_until="networkidle")
    widths = page.evaluate(ICON_WIDTHS)
    shoot(page, "icon-zoomed")
    assert (failed, widths) == ([], [32, 32])
