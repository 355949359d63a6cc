"""Prompt templates: the simulated customer (``customer_system.md``, the turn in the
``screen`` view ``customer_turn.md`` and the ``wide`` view ``customer_turn_wide.md``, and the
note that asks again after an unusable answer ``customer_repair.md``) and the blind look at an
image (``blind_look.md``)."""
