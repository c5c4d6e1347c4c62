"""Settings: the only place that reads the environment (prefix TAPEQUIZ_).

Every knob a deployment may turn lives here with a safe default, so a fresh clone runs
with no configuration at all and the README's configuration table mirrors this class.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TAPEQUIZ_", env_file=None, extra="ignore")

    # The checkout's data/ wherever the command runs (a relative TAPEQUIZ_DATA_DIR is taken
    # from the working directory): `tapequiz users promote` run elsewhere must find the
    # server's database, not create a new ./data.
    data_dir: Path = Field(
        default=REPO_ROOT / "data", description="Runtime data: database, uploads."
    )
    database_url: str = Field(default="", description="SQLAlchemy URL; default SQLite in data_dir.")
    packs_dir: Path = Field(default=REPO_ROOT / "questions", description="Built-in packs.")
    secret_key: str = Field(default="", description="Cookie signing key; generated if empty.")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)

    # Code grader (sandboxed TensorFlow workers).
    sandbox_enabled: bool = Field(default=True, description="Start the code-grading pool.")
    sandbox_pool_size: int = Field(default=2, ge=1, le=32)
    sandbox_queue_size: int = Field(default=16, ge=1, le=1000)
    sandbox_wall_seconds: float = Field(default=15.0, gt=0, le=300)
    interview_busy_wait_seconds: float = Field(
        default=15.0,
        ge=0,
        le=600,
        description="How long an interview code answer's own request waits, holding no "
        "thread, for the grade the background drain gives it (the interview's clock "
        "stopped); then the next question is served anyway, saying it was chosen without "
        "that grade. A finish or report read never waits: the report marks the answer "
        "pending (still being graded).",
    )
    sandbox_cpu_seconds: int = Field(default=10, ge=1, le=300)
    sandbox_memory_mb: int = Field(default=1024, ge=256, le=16384)
    sandbox_pids: int = Field(default=64, ge=16, le=4096)
    sandbox_uid_base: int = Field(default=60000, ge=1000)
    sandbox_backend: Literal["auto", "cgroup1", "cgroup2", "rootless"] = Field(
        default="auto", description="auto: strongest that works here (see docs/sandbox.md)."
    )
    sandbox_fork_server: bool = Field(
        default=True, description="Fork workers from a zygote (TF imported once) instead of exec."
    )
    sandbox_zygote_max_forks: int = Field(
        default=500, ge=1, le=100000, description="Replace the zygote after this many forks."
    )

    # Web: identity cookies and rate limits (issue 5, WEB).
    cookie_secure: bool = Field(default=False, description="Send cookies over HTTPS only.")
    login_attempts_per_minute: int = Field(default=10, ge=1, le=1000)
    # Failed log-ins from one address over all its browsers (a class behind one NAT
    # address: 40 learners mistyping 5 times each) before the address itself backs off.
    login_failures_per_address: int = Field(default=200, ge=1, le=100000)
    grades_per_minute: int = Field(default=30, ge=1, le=10000)
    # A class behind one NAT address: each learner with an identity is limited as themselves,
    # and all of them together by this ceiling per address (40 learners at 15 a minute).
    grades_per_minute_per_address: int = Field(default=600, ge=1, le=100000)

    # Bursts and hostile clients (issue 12): fail fast with 503 + Retry-After, never stall.
    db_pool_size: int = Field(default=20, ge=1, le=500, description="Pooled DB connections.")
    db_pool_overflow: int = Field(default=30, ge=0, le=500)
    db_pool_timeout: float = Field(default=5.0, gt=0, le=60, description="Wait for a connection.")
    db_busy_timeout: float = Field(default=5.0, gt=0, le=60, description="SQLite lock wait.")
    trusted_proxies: list[str] = Field(
        default_factory=list, description="Proxy addresses/CIDRs whose X-Forwarded-For is used."
    )
    proxy_headers: bool = Field(
        default=False,
        description="tapequiz serve: let uvicorn take X-Forwarded-Proto/-For from trusted_proxies.",
    )
    # Per address: a class of 40 behind one NAT, with retries, fits. 100 OWASP argon2id hashes
    # (~0.03 s each) cost one abuser's address less CPU than the 20 default ones of round 12.
    signups_per_hour: int = Field(default=100, ge=1, le=10000)
    login_free_failures: int = Field(default=5, ge=1, le=100)
    login_max_delay_seconds: int = Field(default=900, ge=1, le=86400)

    # Several processes and hosts (issue 16, see docs/scaling.md). All off by default.
    redis_url: str = Field(
        default="", description="Redis for grading jobs and shared limits; empty: one process."
    )
    web_processes: int = Field(
        default=1, ge=1, le=256, description="Web processes sharing the database (serve -w)."
    )
    migrate_on_start: bool = Field(
        default=True, description="Migrate at start-up; false: refuse to serve if behind."
    )
    rate_limit_store: Literal["auto", "memory", "database", "redis"] = Field(
        default="auto", description="auto: redis if configured, database if shared, else memory."
    )
    grading_timeout_seconds: float = Field(
        default=120.0, gt=0, le=3600, description="Longest a web request waits for a grader."
    )
    catalog_check_seconds: float = Field(
        default=2.0, gt=0, le=3600, description="How often a publish elsewhere is looked for."
    )

    # Free-text grading (issue 14): the learned second opinion on the rules' verdict
    # (app/grading/freetext/second_opinion.py); on since round 7, when padding stopped moving
    # it (docs/freetext-rounds.md "Round 7: a verdict that resists padding").
    freetext_second_opinion: bool = Field(
        default=True, description="Let learned models move a free-text verdict one step."
    )
    # The nearest labelled answers name a tell the rules missed (round 7,
    # app/grading/freetext/neighbours.py,
    # docs/freetext-rounds.md "Round 7: nearest labelled answers");
    # on since round 8, when the suggestion learned to read a denial ("Round 8: a suggested
    # tell must be stated").
    freetext_neighbours: bool = Field(
        default=True, description="Let the nearest labelled answers name a missed free-text tell."
    )
    # A per-question, per-tag classifier names a tell where the rules and the neighbours
    # named none (round 19, app/grading/freetext/tag_classifier.py, docs/freetext-rounds.md
    # "Round 19: a learned per-tag tell finder"); on since round 34: after round 33's
    # median-length floor it names no tell on the four held true statements, and the chain's
    # LOPO / LORO readings on tune gain +15 / +13 exact, +59 / +51 named with no false tell
    # more ("Round 33's final held-out reading").
    freetext_tag_classifier: bool = Field(
        default=True, description="Let a per-tag classifier name a missed free-text tell."
    )
    # A per-question verdict model over the answer's MiniLM embedding (round 22,
    # app/grading/freetext/embedding_verdict.py and encoder.py; docs/freetext-rounds.md
    # "Round 22: the embedding verdict, wired (engineer E3)"); off: it needs the `embedding`
    # extra and the int8 encoder file, and costs ~10 ms CPU an answer.
    freetext_embedding_verdict: bool = Field(
        default=False, description="Let an embedding model move a sure free-text verdict."
    )
    freetext_encoder_path: Path | None = Field(
        default=None, description="The int8 encoder file; default under the virtualenv."
    )

    # Instructor pack uploads (issue 7, INSTRUCTOR): limits checked before anything is unpacked.
    pack_upload_max_bytes: int = Field(default=2 * 1024 * 1024, ge=1024, le=100 * 1024 * 1024)
    pack_unpacked_max_bytes: int = Field(default=8 * 1024 * 1024, ge=1024, le=500 * 1024 * 1024)
    pack_max_files: int = Field(default=200, ge=2, le=5000)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'tapequiz.db').resolve()}"


@lru_cache
def get_settings() -> Settings:
    return Settings()
