"""Read YAML pack files safely and remember where each value came from.

Pack authors need "questions/x/q.yaml:14: prompt: field required", not a bare pydantic
error, so we keep the composed node tree beside the data and resolve an error's location
path (('choices', 2, 'text')) to the line of the nearest node that exists.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

MAX_FILE_BYTES = 256 * 1024
# A question file is a few levels deep; the composer recurses once per level, so a few
# thousand brackets would exhaust Python's stack before any validation could speak.
MAX_DEPTH = 40
# Values once aliases are expanded: a question file holds a few hundred; aliases nested
# nine deep turn a 1 KiB file into 387 million ("billion laughs"), and one alias repeated
# makes a list of thousands of samples the self-test would grade one by one.
MAX_VALUES = 20_000
_OPENS = (
    yaml.BlockMappingStartToken,
    yaml.BlockSequenceStartToken,
    yaml.FlowMappingStartToken,
    yaml.FlowSequenceStartToken,
)
_CLOSES = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
# libyaml's safe loader when PyYAML was built with it (the PyPI wheels are): the same tokens,
# nodes, marks and safe constructors, parsed in C. Loading the core pack spent most of its
# time in the pure-Python scanner, three passes per file.
LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlFileError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class YamlDoc:
    data: Any
    root: yaml.Node | None

    def line_of(self, loc: tuple[int | str, ...]) -> int:
        """1-based line of the deepest node along `loc` (the document start if none)."""
        node, line = self.root, 1
        for key in loc:
            if node is None:
                break
            line = node.start_mark.line + 1
            node = _child(node, key)
        if node is not None:
            line = node.start_mark.line + 1
        return line


def _child(node: yaml.Node, key: int | str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    return None


def read_yaml(path: Path) -> YamlDoc:
    """Parse one file with the safe loader; raise YamlFileError with a line on any problem."""
    return read_yaml_with_bytes(path)[0]


def read_yaml_with_bytes(path: Path) -> tuple[YamlDoc, bytes]:
    """`read_yaml`, with the bytes it parsed: a caller that also hashes the file (a pack's
    shared entries, round 54) reads it once, so the digest is of the bytes parsed."""
    data = _read_bounded(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlFileError(1, f"file is not UTF-8 text ({exc.reason})") from exc
    # Universal newlines, as `Path.read_text` read it before round 54.
    return parse_yaml(text.replace("\r\n", "\n").replace("\r", "\n")), data


def _read_bounded(path: Path) -> bytes:
    """The file's bytes, opened once: a regular file (a pipe would block the reader forever:
    checked before it is opened, and again on what was opened) of at most MAX_FILE_BYTES."""
    if not stat.S_ISREG(path.stat().st_mode):
        raise YamlFileError(1, "not a regular file")
    too_large = YamlFileError(1, f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
    with path.open("rb") as handle:
        opened = os.fstat(handle.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise YamlFileError(1, "not a regular file")
        if opened.st_size > MAX_FILE_BYTES:
            raise too_large
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:  # grown since it was opened
        raise too_large
    return data


def parse_yaml(text: str) -> YamlDoc:
    try:
        _check_depth(text)  # the scanner is iterative; the composer below is not
        data, root = _compose_then_construct(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlFileError(line, f"invalid YAML: {exc.problem or exc}") from exc
    except yaml.YAMLError as exc:
        raise YamlFileError(1, f"invalid YAML: {exc}") from exc
    except RecursionError:  # a shape _check_depth does not count; never a crash
        raise YamlFileError(1, "values are nested too deeply") from None
    return YamlDoc(data=data, root=root)


def _compose_then_construct(text: str) -> tuple[Any, yaml.Node | None]:
    """One parse: the node tree is checked (duplicate keys, aliases expanded) before any
    value is built from it."""
    loader = LOADER(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_keys(root, {})
        _check_size(root)
        return loader.construct_document(root), root
    finally:
        loader.dispose()


def _check_depth(text: str) -> None:
    too_deep = f"values are nested more than {MAX_DEPTH} levels deep"
    depth = 0
    try:
        for token in yaml.scan(text, Loader=LOADER):
            depth += isinstance(token, _OPENS) - isinstance(token, _CLOSES)
            if depth > MAX_DEPTH:
                raise YamlFileError(token.start_mark.line + 1, too_deep)
    except yaml.MarkedYAMLError as exc:  # libyaml reads ahead and stops at its own limit (1000)
        if exc.problem != "exceeded maximum nesting depth" or exc.problem_mark is None:
            raise
        raise YamlFileError(exc.problem_mark.line + 1, too_deep) from None


def _check_keys(node: yaml.Node, seen: dict[int, None]) -> None:
    """Refuse a key written twice in one mapping: YAML keeps the last silently, so a
    pasted block would replace a field the author thinks is still there."""
    if id(node) in seen:  # an alias: its node was checked where the anchor is
        return
    seen[id(node)] = None
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                line = key.start_mark.line + 1
                if key.value in first:
                    message = f"duplicate key `{key.value}` (first on line {first[key.value]})"
                    raise YamlFileError(line, message)
                first[key.value] = line
            _check_keys(value, seen)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_keys(item, seen)


def _check_size(root: yaml.Node) -> None:
    """Count the values the document holds with every alias expanded, without expanding."""
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        if id(node) not in sizes:
            children: list[yaml.Node] = []
            if isinstance(node, yaml.MappingNode):
                children = [n for pair in node.value for n in pair]
            elif isinstance(node, yaml.SequenceNode):
                children = list(node.value)
            sizes[id(node)] = 1 + sum(size(child) for child in children)
        return sizes[id(node)]

    total = size(root)
    if total > MAX_VALUES:
        raise YamlFileError(
            1,
            f"the file holds {total:,} values once its aliases are expanded; the limit is"
            f" {MAX_VALUES:,}",
        )
