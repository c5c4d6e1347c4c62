"""The `tapequiz` command: serve the app, validate and calibrate packs, grade an answer file."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.config import Settings, get_settings

if TYPE_CHECKING:
    from app.grading.dispatch import Graded
    from app.packs.loader import LoadedQuestion, Pack
    from app.services.instructor.selftest import SelfTestReport


def _serve(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    settings = get_settings()
    if args.workers > 1:  # several processes: migrate once here, the workers only check
        os.environ["TAPEQUIZ_WEB_PROCESSES"] = str(max(args.workers, settings.web_processes))
        os.environ["TAPEQUIZ_MIGRATE_ON_START"] = "false"
        failed = _prepare(Settings())
        if failed:
            return failed
    proxy_headers, allow_ips = proxy_options(settings)
    uvicorn.run(
        "app.main:app",
        host=args.host or settings.host,
        port=args.port or settings.port,
        reload=args.reload,
        workers=args.workers if args.workers > 1 else None,
        log_level=args.log_level,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=allow_ips,
    )
    return 0


def proxy_options(settings: Settings) -> tuple[bool, str | None]:
    """uvicorn's proxy-header handling: off unless TAPEQUIZ_PROXY_HEADERS is set, and then
    only for the addresses of TAPEQUIZ_TRUSTED_PROXIES (never uvicorn's own default list), so
    one setting names the proxies for the app's client address and uvicorn's scheme alike."""
    if not (settings.proxy_headers and settings.trusted_proxies):
        return False, None
    return True, ",".join(settings.trusted_proxies)


def _prepare(settings: Settings) -> int:
    """Check the settings and bring the schema up to date, once, before anything serves."""
    from app.db import make_engine
    from app.processes import DeploymentError, check_settings, upgrade_once

    try:
        check_settings(settings)
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        engine = make_engine(settings)
        upgrade_once(engine, settings)
        engine.dispose()
    except DeploymentError as err:
        print(f"tapequiz: {err}", file=sys.stderr)
        return 2
    return 0


def _db_upgrade(_args: argparse.Namespace) -> int:
    failed = _prepare(get_settings().model_copy(update={"web_processes": 1, "redis_url": ""}))
    if not failed:
        print("the database schema is up to date")
    return failed


def _grader(_args: argparse.Namespace) -> int:
    from app.grading.remote.consumer import run_grader

    settings = get_settings()
    if not settings.redis_url:
        print(
            "tapequiz grader needs TAPEQUIZ_REDIS_URL (the queue it takes jobs from)",
            file=sys.stderr,
        )
        return 2
    asyncio.run(run_grader(settings))
    return 0


def _validate(args: argparse.Namespace) -> int:
    from app.packs.catalog import Catalog, pack_folders
    from app.packs.loader import load_pack

    folders = [
        f for p in args.paths for f in (pack_folders(p) if not (p / "pack.yaml").exists() else [p])
    ]
    if not folders:
        print(f"error: no pack folder (with pack.yaml) under {', '.join(map(str, args.paths))}")
        return 2
    catalog, problems = Catalog(), list[object]()
    for folder in folders:
        report = load_pack(folder)
        problems += report.problems
        if report.pack is not None:
            problems += catalog.add(report.pack)
            problems += _slow_phrasings(report.pack)
            print(f"ok   {folder}: {len(report.pack.questions)} questions")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) found")
    return 1 if problems else 0


def _slow_phrasings(pack: Pack) -> list[str]:
    """The check publishing runs, here too: a built-in pack is never published, so this (and
    the test suite, which runs it over questions/) is where its phrasings are timed."""
    from app.errors import PackCheckBusy
    from app.services.instructor.phrasing_timing import slow_phrasings

    try:
        return asyncio.run(slow_phrasings(pack))
    except PackCheckBusy as exc:  # a check that did not finish is not a pass
        return [f"{pack.path}: {exc.message}"]


def _calibrate(args: argparse.Namespace) -> int:
    from app.grading.freetext import run_calibrate_cli

    return run_calibrate_cli(args.path, args.labelled)


def _coverage(args: argparse.Namespace) -> int:
    from app.packs.coverage import coverage_table
    from app.packs.loader import load_pack

    report = load_pack(args.path)
    if report.pack is None:
        print(*report.problems, sep="\n")
        return 1
    print(coverage_table(report.pack))
    return 0


def _new_pack(args: argparse.Namespace) -> int:
    from app.packs.scaffold import ScaffoldError, scaffold_pack

    try:
        folder = scaffold_pack(args.dir, args.name)
    except ScaffoldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"created {folder}; edit it, then run: tapequiz packs test {folder}")
    return 0


def _test_pack(args: argparse.Namespace) -> int:
    from app.packs.loader import load_pack
    from app.services.instructor.selftest import SelfTestReport, format_report

    loaded = load_pack(args.path)
    if loaded.pack is None:
        problems = tuple(str(p) for p in loaded.problems)
        print(format_report(SelfTestReport(pack_id=str(args.path), problems=problems)))
        return 2
    try:
        report = asyncio.run(_selftest(loaded.pack, skip_code=args.skip_code))
    except ImportError:
        print("error: the code grader is not installed; use --skip-code", file=sys.stderr)
        return 2
    print(format_report(report))
    return 0 if report.passed else 1


async def _selftest(pack: Pack, *, skip_code: bool) -> SelfTestReport:
    from app.services.instructor.selftest import has_code, run_selftest

    grader = None
    if not skip_code and has_code(pack):
        from app.grading.code import CodeGrader

        grader = CodeGrader(get_settings())
        await grader.start()
    try:
        return await run_selftest(pack, code_grader=grader)
    finally:
        if grader is not None:
            await grader.stop()


def _set_role(args: argparse.Namespace) -> int:
    from sqlmodel import Session

    from app.db import init_db, make_engine
    from app.errors import NotFound
    from app.services.instructor.roles import set_role

    settings = get_settings()
    where = _database_named(settings)
    if _sqlite_missing(settings):
        print(f"error: no database at {where}: {NO_DATABASE}", file=sys.stderr)
        return 2
    engine = make_engine(settings)
    init_db(engine)
    role = "instructor" if args.users_command == "promote" else "learner"
    try:
        with Session(engine) as session:
            user = set_role(session, email=args.email, role=role)
    except NotFound as exc:
        print(f"error: {exc.message} (database: {where})", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    print(f"{user.email} is now {user.role} (database: {where})")
    return 0


NO_DATABASE = (
    "no server has run with this data dir yet (start it with `make run`, sign up, then "
    "promote; or set TAPEQUIZ_DATA_DIR to the server's)"
)


def _sqlite_missing(settings: Settings) -> bool:
    """A role is set on an existing account: an absent SQLite file is a wrong data dir."""
    url = settings.resolved_database_url
    return url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file()


def _database_named(settings: Settings) -> str:
    """Which database a command used, so a wrong data dir is visible (no password shown)."""
    from sqlalchemy.engine import make_url

    url = settings.resolved_database_url
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    return make_url(url).render_as_string(hide_password=True)


def _grade(args: argparse.Namespace) -> int:
    from app.services.instructor.publishing import load_serving_catalog

    settings = get_settings()
    catalog = load_serving_catalog(settings)
    item = catalog.questions.get(args.question)
    if item is None:
        print(f"error: no question with id {args.question!r}", file=sys.stderr)
        return 2
    text = args.answer.read_text(encoding="utf-8")
    answer = text if item.question.type in ("free-text", "code", "code-fix") else json.loads(text)
    graded = asyncio.run(_grade_once(item, answer, settings))
    result = graded.result
    print(f"verdict: {result.verdict}  score: {result.score:.2f}  ({graded.elapsed_ms:.0f} ms)")
    for feedback in result.feedback:
        print(f"- [{feedback.kind}] {feedback.message}")
    if result.misconceptions:
        print(f"misconceptions: {', '.join(result.misconceptions)}")
    return 0 if result.verdict == "correct" else 1


async def _grade_once(item: LoadedQuestion, answer: object, settings: Settings) -> Graded:
    from app.grading.dispatch import grade_answer

    grader = None
    if item.question.type in ("code", "code-fix"):
        from app.grading.code import CodeGrader

        grader = CodeGrader(settings)
        await grader.start()
    try:
        return await grade_answer(item, answer, code_grader=grader)
    finally:
        if grader is not None:
            await grader.stop()


def _doctor(args: argparse.Namespace) -> int:
    from app.grading.sandbox import doctor

    settings = get_settings()
    return doctor.run(args.backend or settings.sandbox_backend, settings.sandbox_uid_base)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tapequiz", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the web app")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--reload", action="store_true")
    serve.add_argument(
        "--workers", "-w", type=int, default=1, help="web processes (see docs/scaling.md)"
    )
    serve.add_argument("--log-level", default="info", help="warning: no line per request")
    serve.set_defaults(func=_serve)
    packs = sub.add_parser("packs", help="author question packs").add_subparsers(
        dest="packs_command", required=True
    )
    validate = packs.add_parser("validate", help="check pack folders; non-zero exit on problems")
    validate.add_argument("paths", nargs="+", type=Path)
    validate.set_defaults(func=_validate)
    calibrate = packs.add_parser("calibrate", help="compare the free-text grader with labels")
    calibrate.add_argument("path", type=Path)
    calibrate.add_argument("--labelled", type=Path, default=None)
    calibrate.set_defaults(func=_calibrate)
    coverage = packs.add_parser("coverage", help="print the section-by-type coverage table")
    coverage.add_argument("path", type=Path)
    coverage.set_defaults(func=_coverage)
    new = packs.add_parser("new", help="scaffold a new pack folder that validates")
    new.add_argument("name", help="pack id, e.g. tape-basics")
    new.add_argument("--dir", type=Path, default=Path("questions"), help="parent folder")
    new.set_defaults(func=_new_pack)
    test = packs.add_parser("test", help="self-test a pack: keys, samples, code solutions")
    test.add_argument("path", type=Path)
    test.add_argument("--skip-code", action="store_true", help="do not start the sandbox")
    test.set_defaults(func=_test_pack)
    users = sub.add_parser("users", help="manage roles").add_subparsers(
        dest="users_command", required=True
    )
    for command, text in (("promote", "make an account an instructor"), ("demote", "undo it")):
        role = users.add_parser(command, help=text)
        role.add_argument("email")
        role.set_defaults(func=_set_role)
    doctor = sub.add_parser("doctor", help="check that this host can grade code answers")
    doctor.add_argument("--backend", choices=["auto", "cgroup1", "cgroup2", "rootless"])
    doctor.set_defaults(func=_doctor)
    database = sub.add_parser("db", help="the database schema").add_subparsers(
        dest="db_command", required=True
    )
    upgrade = database.add_parser("upgrade", help="migrate to the newest schema (once per deploy)")
    upgrade.set_defaults(func=_db_upgrade)
    grader = sub.add_parser("grader", help="take code-grading jobs from Redis (a grading host)")
    grader.set_defaults(func=_grader)
    grade = sub.add_parser("grade", help="grade one answer file against a question")
    grade.add_argument("--question", required=True)
    grade.add_argument("answer", type=Path)
    grade.set_defaults(func=_grade)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
