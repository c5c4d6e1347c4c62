"""The ops a replayed graph may hold: an allowlist, not a blocklist.

A FunctionDef the candidate's process exported can hold any op TensorFlow registers, and the
replay worker runs it with the hidden state in memory. Round 16 refused ops by name fragments
("File", "PyFunc", ...): any op whose name it did not foresee ran. Now a graph runs only if
every node is one of the ops below: those a training step of the core contracts traces
(`DERIVED`: every op in the graphs of the core pack's references and known-wrong solutions,
the labelled public-idiom corpus and the golden cases, printed by `scripts/replay-ops.py`),
plus `PURE`: stateless math, shape and control-flow kernels of the same families that a
correct step written another way may trace (a tanh, a softmax cross-entropy, an `if`), none of
which touches a file, Python, a random stream or state other than its inputs. Variables are
reached only through the handles the replay itself passes in: no op that makes or looks up a
variable, table or resource by name is allowed.
"""

from __future__ import annotations

from typing import Any

DERIVED = frozenset({
    "AddN", "AddV2", "AssignAddVariableOp", "AssignSubVariableOp", "AssignVariableOp",
    "BiasAdd", "BiasAddGrad", "BroadcastTo", "Cast", "ConcatOffset", "ConcatV2", "Const",
    "Cos", "DivNoNan", "Exp", "ExpandDims", "Fill", "FloorDiv", "FloorMod", "GatherV2",
    "Greater", "GreaterEqual", "Identity", "IdentityN", "L2Loss", "LeakyRelu", "LeakyReluGrad",
    "Less", "Log1p", "LogSoftmax", "LogicalOr", "MatMul", "Maximum", "Mean", "Minimum", "Mul",
    "Neg", "NoOp", "Pack", "PlaceholderWithDefault", "Prod", "Range", "ReadVariableOp",
    "RealDiv", "Reciprocal", "Relu", "ReluGrad", "Reshape", "Round", "Rsqrt", "RsqrtGrad",
    "Select", "Sin", "Slice", "Split", "Sqrt", "Square", "SquaredDifference", "Squeeze",
    "StatefulPartitionedCall", "StatelessWhile", "StopGradient", "StridedSlice",
    "StridedSliceGrad", "Sub", "Sum", "TensorListReserve", "TensorListSetItem",
    "TensorListStack", "Tile", "Transpose", "UnsortedSegmentSum",
})  # fmt: skip
PURE = frozenset({
    # element-wise math and its gradients
    "Abs", "Sign", "Pow", "Log", "Expm1", "Tanh", "TanhGrad", "Sigmoid", "SigmoidGrad",
    "Softplus", "SoftplusGrad", "Softsign", "SoftsignGrad", "Elu", "EluGrad", "Selu",
    "SeluGrad", "Relu6", "Relu6Grad", "Erf", "Erfc", "Floor", "Ceil", "Rint", "Div",
    "TruncateDiv", "Xdivy", "Xlogy", "Xlog1py", "SqrtGrad", "ReciprocalGrad", "Tan", "Atan",
    "Equal", "NotEqual", "LessEqual", "LogicalAnd", "LogicalNot", "IsNan", "IsFinite", "IsInf",
    "ClipByValue", "SelectV2", "ZerosLike", "OnesLike",
    # reductions
    "Max", "Min", "All", "Any", "ArgMax", "ArgMin", "Cumsum", "EuclideanNorm",
    # shapes and indexing
    "Shape", "ShapeN", "Size", "Rank", "Unpack", "Pad", "PadV2", "SplitV", "Gather",
    "GatherNd", "ScatterNd", "OneHot", "Where", "ReverseV2", "InvertPermutation",
    "BroadcastArgs", "BroadcastGradientArgs", "DynamicStitch", "EnsureShape", "PreventGradient",
    # layers and losses
    "BatchMatMulV2", "BatchMatMulV3", "Einsum", "Softmax", "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits", "FusedBatchNormV3", "FusedBatchNormGradV3",
    # control flow (the functions they call are checked like the rest of the library)
    "If", "StatelessIf", "While", "PartitionedCall", "TensorListFromTensor",
    "TensorListGetItem", "TensorListLength", "TensorListElementShape", "TensorListPushBack",
    "TensorListPopBack",
    # tf.print to the console (its stream is checked) and assertions
    "PrintV2", "StringFormat", "Assert", "CheckNumerics", "CheckNumericsV2",
})  # fmt: skip
ALLOWED_OPS = DERIVED | PURE
# A constant of these types would name a resource (a variable, a table) the replay did not pass
# in: DT_RESOURCE and DT_VARIANT (types.proto).
OPAQUE_DTYPES = (20, 21)
PRINT_STREAMS = ("stderr", "stdout", "log(info)", "log(warning)", "log(error)")
# Why an op a step might reach for is not there, in the learner's words (by name fragment).
WHY_NOT = (
    ("PyFunc", "it calls back into Python (tf.py_function / tf.numpy_function)"),
    ("Random", "it draws from a random stream whose state the replay does not have"),
    ("Summary", "it writes a summary"),
    ("File", "it reads or writes a file"),
    ("Dataset", "it reads a dataset"),
    ("VarHandle", "it creates or looks up a variable by name"),
)


def refused(library: Any, called: list[str]) -> str:
    """Why the FunctionDef library cannot be replayed, or "" when every node is allowed and
    every function called (`called`: the replay's own calls, then each node's function-valued
    attributes) is one of the library's: TF also runs a bare op by name as a function, so a
    call of "WriteFile" would run an op no node names."""
    functions = {fdef.signature.name for fdef in library.function}
    outside = next((name for name in called if name not in functions), None)
    if outside is not None:
        return f"the traced graph calls {outside[:80]}, which is not one of its functions"
    for fdef in library.function:
        for node in fdef.node_def:
            if node.op not in ALLOWED_OPS:
                return describe(node.op)
            if node.op == "Const" and node.attr["dtype"].type in OPAQUE_DTYPES:
                return "the traced graph holds a constant resource or variant handle"
            outside = next((f for f in _functions(node) if f not in functions), None)
            if outside is not None:
                return f"the traced graph calls {outside[:80]}, which is not one of its functions"
            stream = node.attr["output_stream"].s.decode() if "output_stream" in node.attr else ""
            if stream and stream not in PRINT_STREAMS:
                return f"tf.print writes to {stream[:80]}, not to the console"
    return ""


def _functions(node: Any) -> list[str]:
    """The names of the functions a node's attributes call (`f`, `body`, `then_branch`, ...)."""
    names = []
    for value in node.attr.values():
        if value.HasField("func"):
            names.append(value.func.name)
        elif value.HasField("list"):
            names += [func.name for func in value.list.func]
    return names


def describe(op: str) -> str:
    why = next((text for part, text in WHY_NOT if part in op), "")
    name = op[:80]
    reason = f": {why}" if why else ""
    return (
        f"the traced graph holds a {name} op, which a training step does not need{reason}; "
        "only the math, shape and variable ops of a training step are run again"
    )
