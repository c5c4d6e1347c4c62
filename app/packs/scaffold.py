"""Create a new, valid pack folder for an instructor to edit (`tapequiz packs new NAME`).

Starting from a blank page is where authors get the format wrong; starting from a pack that
already validates and passes its self-test means every later error is one they just made,
with a file and line to go with it. Question ids are prefixed with the pack name because
ids must be unique across every pack a server loads.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.packs.schema import SLUG

MAX_NAME = 40  # leaves room for the "-first-explanation" suffix inside a 63-character slug


class ScaffoldError(Exception):
    pass


PACK_YAML = """\
# The pack's metadata. Every question names one section and one topic declared here.
id: {name}
title: {title}
description: |
  One paragraph saying who this pack is for and what it covers.
version: 0.1.0
source: ""
sections:
  - id: basics
    title: The basics
topics:
  - id: tapes
    title: Gradient tapes
"""

CHOICE_YAML = """\
# See docs/authoring.md for every field. The file name must equal the id.
id: {name}-first-choice
type: single-choice
title: What records operations?
prompt: |
  Which object records the operations of a forward pass so gradients can be computed?
difficulty: easy
topic: tapes
section: basics
tags: []
hints:
  - It is used as a context manager around the forward pass.
explanation: |
  `tf.GradientTape` records operations run inside its block; `tape.gradient` replays them
  backwards.
choices:
  - id: tape
    text: "`tf.GradientTape`"
    correct: true
  - id: optimizer
    text: The optimizer
    why: The optimizer applies gradients it is given; it records nothing.
"""

FREE_TEXT_YAML = """\
id: {name}-first-explanation
type: free-text
title: What does apply_gradients do?
prompt: What does `optimizer.apply_gradients` do in a training step?
difficulty: easy
topic: tapes
section: basics
hints:
  - Which call actually changes the weights?
explanation: |
  It updates the variables using the gradients it is given (and the optimizer's own state).
rubric:
  model_answer: It updates the weights (variables) using the gradients it is given.
  concepts:
    - id: updates-weights
      label: apply_gradients updates the weights
      required: true
      any:
        - (updates?|changes?|modif(y|ies)|adjusts?) ~ (weights|variables|parameters)
  misconceptions:
    - tag: computes-gradients
      label: apply_gradients computes the gradients
      correction: The tape computes gradients; apply_gradients only uses them.
      cap: incorrect
      any:
        - (computes?|calculates?) ~ (the )?gradients
samples:  # labelled answers: `tapequiz packs test` checks the grader agrees with each
  - answer: It updates the model's weights with the gradients.
    verdict: correct
  - answer: It computes the gradients of the loss.
    verdict: incorrect
    misconceptions: [computes-gradients]
"""

CODE_YAML = """\
id: {name}-first-code
type: code
title: Write a training step
prompt: Write `train_step(model, optimizer, loss_fn, x, y)` that trains on one batch.
difficulty: medium
topic: tapes
section: basics
hints:
  - Compute the loss inside `with tf.GradientTape() as tape:`.
explanation: |
  Forward pass and loss on the tape, gradients of the trainable variables, then
  `optimizer.apply_gradients`.
contract: train-step
function: train_step(model, optimizer, loss_fn, x, y)
starter: |
  import tensorflow as tf


  def train_step(model, optimizer, loss_fn, x, y):
      ...
reference: |
  import tensorflow as tf


  def train_step(model, optimizer, loss_fn, x, y):
      with tf.GradientTape() as tape:
          loss = loss_fn(y, model(x, training=True))
      grads = tape.gradient(loss, model.trainable_variables)
      optimizer.apply_gradients(zip(grads, model.trainable_variables))
      return loss
wrong:
  - tag: loss-outside-tape
    label: The loss is computed after the tape block
    code: |
      import tensorflow as tf


      def train_step(model, optimizer, loss_fn, x, y):
          with tf.GradientTape() as tape:
              predictions = model(x, training=True)
          loss = loss_fn(y, predictions)
          grads = tape.gradient(loss, model.trainable_variables)
          optimizer.apply_gradients(zip(grads, model.trainable_variables))
          return loss
"""

FILES = {
    "pack.yaml": PACK_YAML,
    "{name}-first-choice.yaml": CHOICE_YAML,
    "{name}-first-explanation.yaml": FREE_TEXT_YAML,
    "{name}-first-code.yaml": CODE_YAML,
}


def check_name(name: str) -> str:
    if not re.match(SLUG, name) or len(name) > MAX_NAME:
        raise ScaffoldError(
            f"pack name {name!r} must be lowercase letters, digits and dashes, starting with"
            f" a letter or digit, at most {MAX_NAME} characters (e.g. 'tape-basics')"
        )
    return name


def scaffold_pack(parent: Path, name: str) -> Path:
    """Write a new pack folder `parent/name`; refuse to touch an existing path."""
    check_name(name)
    folder = parent / name
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists; choose another name or folder")
    folder.mkdir(parents=True)
    title = name.replace("-", " ").capitalize()
    for file_name, template in FILES.items():
        path = folder / file_name.format(name=name)
        path.write_text(template.format(name=name, title=title), encoding="utf-8")
    return folder
