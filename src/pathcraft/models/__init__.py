"""Python models: the semantics of one Python type or stdlib module in one
place, registered by what they model (`models/registry.py`).

The order matters where two models intercept one predicate: a str's `%`
before the int model's operand check, which comes before the float rows.
"""

from __future__ import annotations

from pathcraft.models import bits, deque, namedtuple
from pathcraft.models import dict as dict_model
from pathcraft.models import float as float_model
from pathcraft.models import int as int_model
from pathcraft.models import list as list_model
from pathcraft.models import str as str_model
from pathcraft.models.registry import Model, Registry

MODELS: tuple[Model, ...] = (str_model.MODEL, int_model.MODEL, bits.MODEL, float_model.MODEL, dict_model.MODEL,
                             namedtuple.MODEL, list_model.MODEL, deque.MODEL)
REGISTRY = Registry(MODELS)
