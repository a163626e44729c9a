"""The models the engine asks, in the order it asks them: the engine-side
halves (`semantics.py`) of the model folders, gathered into one
`Registry`.

The order matters where two models intercept one predicate: a str's `%`
before the int model's operand check, which comes before the float rows.
"""

from __future__ import annotations

from pathcraft.models.bits import semantics as bits
from pathcraft.models.deque import semantics as deque
from pathcraft.models.dict import semantics as dict_model
from pathcraft.models.enum import semantics as enum_model
from pathcraft.models.float import semantics as float_model
from pathcraft.models.int import semantics as int_model
from pathcraft.models.list import semantics as list_model
from pathcraft.models.namedtuple import semantics as namedtuple
from pathcraft.models.registry import Model, Registry
from pathcraft.models.str import semantics as str_model
from pathcraft.models.warnings import semantics as warnings_model

MODELS: tuple[Model, ...] = (str_model.MODEL, int_model.MODEL, bits.MODEL, float_model.MODEL, dict_model.MODEL,
                             namedtuple.MODEL, list_model.MODEL, deque.MODEL, enum_model.MODEL,
                             warnings_model.MODEL)
REGISTRY = Registry(MODELS)
