"""What the candidate's source says before it runs: syntax, tape blocks, loss and NumPy lines.

Runtime observations say *that* gradients were None; the source says *why* and where: the
loss assigned after the `with tf.GradientTape()` block closed, or `.numpy()` inside it. This
runs on the trusted side with `ast` only, so a syntax error is answered without a worker.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SourceFacts:
    syntax_error: str = ""
    syntax_line: int = 0
    defines: tuple[str, ...] = ()
    loss_outside_tape: list[int] = field(default_factory=list)  # lines assigning a target late
    numpy_in_tape: list[int] = field(default_factory=list)
    numpy_on_path: list[int] = field(default_factory=list)  # ...applied to a differentiable value
    gradient_lines: list[int] = field(default_factory=list)
    apply_lines: list[int] = field(default_factory=list)
    persistent_tape: bool = False
    calls: frozenset[str] = frozenset()  # names of every function/method called
    clip_norms: tuple[float, ...] = ()  # literal clip_norm of each tf.clip_by_global_norm call


def analyse(source: str) -> SourceFacts:
    try:
        tree = ast.parse(source, filename="answer.py")
    except SyntaxError as err:
        return SourceFacts(syntax_error=f"{err.msg}", syntax_line=err.lineno or 0)
    blocks = _tape_blocks(tree)
    return SourceFacts(
        defines=tuple(
            n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ),
        loss_outside_tape=_late_targets(tree, blocks),
        numpy_in_tape=_numpy_lines(tree, blocks),
        numpy_on_path=_numpy_on_path(tree, blocks),
        gradient_lines=_calls_named(tree, "gradient"),
        apply_lines=_calls_named(tree, "apply_gradients") + _calls_named(tree, "apply"),
        persistent_tape=_has_persistent(tree),
        calls=frozenset(_called_names(tree)),
        clip_norms=_clip_norms(tree),
    )


def _clip_norms(tree: ast.AST) -> tuple[float, ...]:
    """The clip_norm written as a number literal in each clip_by_global_norm call."""
    found = []
    for node in ast.walk(tree):
        if (
            not isinstance(node, ast.Call)
            or getattr(node.func, "attr", "") != "clip_by_global_norm"
        ):
            continue
        given = [k.value for k in node.keywords if k.arg == "clip_norm"] + node.args[1:2]
        value = given[0].value if given and isinstance(given[0], ast.Constant) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            found.append(float(value))
    return tuple(found)


def _called_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return names


def _is_tape_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name == "GradientTape"


def _tape_blocks(tree: ast.AST) -> dict[str, list[tuple[int, int]]]:
    """Tape variable name -> line ranges of the `with` bodies that record on it."""
    blocks: dict[str, list[tuple[int, int]]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.With):
            for item in node.items:
                if _is_tape_call(item.context_expr) and isinstance(item.optional_vars, ast.Name):
                    span = (node.body[0].lineno, node.end_lineno or node.lineno)
                    blocks.setdefault(item.optional_vars.id, []).append(span)
    return blocks


def _inside(line: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= line <= end for start, end in spans)


def _late_targets(tree: ast.AST, blocks: dict[str, list[tuple[int, int]]]) -> list[int]:
    """Lines where a `tape.gradient` target was last assigned outside every tape block."""
    assigned: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(node.lineno)
    all_spans = [span for spans in blocks.values() for span in spans]
    late = []
    for call in _gradient_calls(tree, blocks):
        if call.args and isinstance(call.args[0], ast.Name):
            before = [ln for ln in assigned.get(call.args[0].id, []) if ln <= call.lineno]
            if before and not _inside(max(before), all_spans):
                late.append(max(before))
    return sorted(set(late))


def _gradient_calls(tree: ast.AST, blocks: dict[str, list[tuple[int, int]]]) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "gradient"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in blocks
    ]


def _numpy_lines(tree: ast.AST, blocks: dict[str, list[tuple[int, int]]]) -> list[int]:
    spans = [span for spans in blocks.values() for span in spans]
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _inside(node.lineno, spans) and _is_numpy_call(node):
            lines.add(node.lineno)
    return sorted(lines)


def _numpy_on_path(tree: ast.AST, blocks: dict[str, list[tuple[int, int]]]) -> list[int]:
    """NumPy calls inside a tape block whose input depends on the model's output or a watched
    tensor: the only NumPy that can cut a gradient chain (converting inputs or labels cannot)."""
    spans = [span for spans in blocks.values() for span in spans]
    lines = set()
    units = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    outermost = [u for u in units if not any(u is not o and _contains(o, u) for o in units)]
    for unit in outermost:  # one top-level function (with its nested steps) at a time
        names, sources = _differentiable_names(unit)
        for node in ast.walk(unit):
            if isinstance(node, ast.Call) and _inside(node.lineno, spans) and _is_numpy_call(node):
                parts = [*node.args, *(k.value for k in node.keywords), node.func]
                if any(_depends(part, names, sources) for part in parts):
                    lines.add(node.lineno)
    return sorted(lines)


def _contains(outer: ast.AST, inner: ast.AST) -> bool:
    return any(node is inner for node in ast.walk(outer))


_VARIABLE_LISTS = {"trainable_variables", "variables", "weights", "trainable_weights"}


def _differentiable_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Names whose value may depend on what a tape differentiates, propagated over assignments.

    Sources: calls of a function parameter (model(x), f(x), generator(noise)), tensors passed
    to tape.watch, and the variable lists. Scopes inside one top-level function are merged: a
    step nested in a factory calls the factory's `model`, which is what matters here.
    """
    params: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            args = node.args
            params |= {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    watched = {
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "watch"
        and node.args
        and isinstance(node.args[0], ast.Name)
    }
    names, sources = set(watched), params & called
    bindings = sorted(_bindings(tree), key=lambda pair: getattr(pair[0], "lineno", 0))
    for _ in range(2):  # twice: a loop body may feed a name assigned above it
        for target, value in bindings:
            if _depends(value, names, sources):
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names, sources


def _bindings(tree: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    pairs: list[tuple[ast.AST, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            pairs += [(target, node.value) for target in node.targets]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
            pairs.append((node.target, node.value))
        elif isinstance(node, ast.For | ast.comprehension):
            pairs.append((node.target, node.iter))
        elif isinstance(node, ast.NamedExpr):
            pairs.append((node.target, node.value))
    return pairs


def _depends(expr: ast.AST, names: set[str], sources: set[str]) -> bool:
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id in names:
            return True
        if isinstance(node, ast.Attribute) and node.attr in _VARIABLE_LISTS:
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in sources
        ):
            return True
    return False


def _is_numpy_call(node: ast.Call) -> bool:
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "numpy":
        return True  # tensor.numpy()
    root = func
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and root.id in {"np", "numpy"}


def _calls_named(tree: ast.AST, attr: str) -> list[int]:
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == attr
    )


def _has_persistent(tree: ast.AST) -> bool:
    return any(
        _is_tape_call(node) and any(k.arg == "persistent" for k in node.keywords)  # type: ignore[attr-defined]
        for node in ast.walk(tree)
    )
