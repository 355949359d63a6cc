"""Prompt templates: the simulated customer (``customer_system.md``, ``customer_turn.md``) and
the blind look at an image (``blind_look.md``)."""
