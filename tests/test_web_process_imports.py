"""The web process must never import TensorFlow: it holds the secrets and the database."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from app.config import REPO_ROOT


def test_web_app_serves_without_importing_deep_learning_frameworks(tmp_path: object) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from fastapi.testclient import TestClient
        from app.config import Settings
        from app.main import create_app
        settings = Settings(data_dir={str(tmp_path)!r}, sandbox_enabled=True)
        with TestClient(create_app(settings)) as client:
            assert client.get("/api/questions").status_code == 200
            assert client.get("/healthz").status_code == 200
        loaded = sorted(m for m in ("tensorflow", "keras", "torch", "jax") if m in sys.modules)
        print("LOADED=" + ",".join(loaded))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "LOADED=\n" in result.stdout
