"""Read YAML pack files safely and remember where each value came from.

Pack authors need "questions/x/q.yaml:14: prompt: field required", not a bare pydantic
error, so we keep the composed node tree beside the data and resolve an error's location
path (('choices', 2, 'text')) to the line of the nearest node that exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

MAX_FILE_BYTES = 256 * 1024


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
    if path.stat().st_size > MAX_FILE_BYTES:
        raise YamlFileError(1, f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlFileError(1, f"file is not UTF-8 text ({exc.reason})") from exc
    return parse_yaml(text)


def parse_yaml(text: str) -> YamlDoc:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlFileError(line, f"invalid YAML: {exc.problem or exc}") from exc
    except yaml.YAMLError as exc:
        raise YamlFileError(1, f"invalid YAML: {exc}") from exc
    return YamlDoc(data=data, root=root)
