"""Code on the page stays readable in light and dark mode and on a phone: the contrast of the
text actually painted (WCAG ratio, measured in Chromium), and nothing cut off at 375 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import LiveServer, ServerFactory
from tests.browser.test_journey import shoot
from tests.browser.test_pages import CORE, open_question, submit

pytestmark = pytest.mark.browser
SCHEMES = ["light", "dark"]
AA = 4.5  # WCAG AA for body text

# The text colour of each element against the first opaque background behind it.
CONTRASTS = """selectors => {
    const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
    const lum = c => {
        const [r, g, b] = c.slice(0, 3).map(v => {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const backdrop = el => {
        for (let e = el; e; e = e.parentElement) {
            const c = rgb(getComputedStyle(e).backgroundColor);
            if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c;
        }
        return [255, 255, 255];
    };
    const out = {};
    for (const sel of selectors) {
        const el = document.querySelector(sel);
        if (!el) { out[sel] = null; continue; }
        const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(backdrop(el))];
        out[sel] = Math.round(100 * (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) / 100;
    }
    return out;
}"""

# The markup of the submissions diff and of a Run's output, as the templates write them.
DIFF_AND_OUTPUT = """() => {
    const main = document.querySelector('main');
    main.insertAdjacentHTML('beforeend',
        '<pre class="diff" id="t-diff"><span class="hunk">@@ -1,3 +1,3 @@</span>' +
        '<span class="same" id="t-same">  with tf.GradientTape() as tape:</span>' +
        '<span class="del" id="t-del">-     pass</span>' +
        '<span class="add" id="t-add">+     loss = f(x)</span></pre>' +
        '<div class="trial"><pre class="output" id="t-output">call 1: loss 0.52</pre></div>');
}"""

EDITOR_SURFACE = "getComputedStyle(document.querySelector('.CodeMirror')).backgroundColor"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_light_code_blocks_keep_readable_text(
    page: Page, make_live_server: ServerFactory, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    server = make_live_server(packs=CORE)
    open_question(page, server, "predict-fresh-gradients-each-step")
    page.keyboard.press("1")
    submit(page)
    expect(page.locator("pre.snippet")).to_be_visible()
    page.evaluate(DIFF_AND_OUTPUT)
    shoot(page, f"predict-feedback-{scheme}")
    wanted = ["pre.snippet code", "#t-same", "#t-add", "#t-del", "#t-output"]
    ratios = page.evaluate(CONTRASTS, wanted)
    assert all(ratios[s] is not None and ratios[s] >= AA for s in wanted), ratios


def _first_glyph_x(page: Page, item_id: str) -> float:
    """Where the first character of a code line is painted (its drawn indentation)."""
    return float(
        page.evaluate(
            """id => {
                const code = document.querySelector(`[data-id="${id}"] code`);
                const range = document.createRange();
                range.setStart(code.firstChild, 0);
                range.setEnd(code.firstChild, 1);
                return range.getBoundingClientRect().left;
            }""",
            item_id,
        )
    )


class TestPhone:
    @pytest.fixture
    def browser_context_args(self) -> dict[str, object]:
        return {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True}

    def test_ordering_code_lines_wrap_and_keep_their_indentation(
        self, page: Page, live_server_core: LiveServer
    ) -> None:
        page.emulate_media(color_scheme="dark")
        open_question(page, live_server_core, "order-accumulation-scaled-loop")
        shoot(page, "phone-dark-ordering-code")
        cut = page.evaluate(
            """() => [...document.querySelectorAll('code.code-line')]
                .filter(c => c.scrollWidth > c.clientWidth + 1
                          || c.getBoundingClientRect().right > window.innerWidth)
                .map(c => c.textContent)"""
        )
        depth = [_first_glyph_x(page, i) for i in ("loop", "open-tape", "scaled-loss")]
        assert (cut, depth[0] < depth[1] < depth[2]) == ([], True), (cut, depth)

    def test_code_editor_follows_dark_mode(self, page: Page, live_server_core: LiveServer) -> None:
        page.emulate_media(color_scheme="dark")
        open_question(page, live_server_core, "accumulate")
        page.wait_for_function("() => window.tapequizEditor !== undefined")
        page.evaluate("() => window.tapequizEditor.setValue('def f(x):\\n    return 1  # one')")
        shoot(page, "phone-dark-code")
        wanted = [".CodeMirror", ".cm-keyword", ".cm-def", ".cm-number", ".cm-comment"]
        ratios = page.evaluate(CONTRASTS, wanted)
        surface = page.evaluate(EDITOR_SURFACE)
        dark = sum(int(v) for v in surface[4:-1].split(",")[:3]) < 3 * 64
        readable = all(ratios[s] is not None and ratios[s] >= AA for s in wanted)
        assert (dark, readable) == (True, True), (surface, ratios)


@pytest.fixture
def live_server_core(make_live_server: ServerFactory) -> LiveServer:
    return make_live_server(packs=CORE)
