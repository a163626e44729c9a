"""How tests are searched for: the strategies a generation run picks by name,
the search controls they steer the engine with, and their post-passes."""
