"""How the worker words an exception (app/grading/sandbox/worker/candidate.py; no TF needed)."""

from __future__ import annotations

from app.grading.sandbox.worker.candidate import describe

GRAPH_ERROR = (
    "Graph execution error:\n\n"
    "Detected at node WriteFile_1 defined at (most recent call last):\n"
    '  File "<frozen runpy>", line 198, in _run_module_as_main\n\n'
    '  File "/opt/tapequiz/tqworker/runner.py", line 45, in run_scenario\n\n'
    '  File "/candidate/answer.py", line 14, in train_step\n\n'
    "/usr/x; Read-only file system\n"
    "\t [[{{node WriteFile_1}}]] [Op:__inference_train_step_12]"
)


def test_graph_error_keeps_the_answers_frames_and_the_error_only() -> None:
    text = describe(RuntimeError(GRAPH_ERROR))
    assert "tqworker" not in text and "runpy" not in text
    assert 'File "/candidate/answer.py", line 14, in train_step' in text
    assert "/usr/x; Read-only file system" in text and "\n\n\n" not in text


def test_plain_message_is_kept_as_it_is() -> None:
    message = 'no frames here: File "x", line 1'
    assert describe(ValueError(message)) == f"ValueError: {message}"
