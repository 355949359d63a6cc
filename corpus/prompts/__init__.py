"""Prompt templates for the simulated customer (``customer_system.md``, ``customer_turn.md``)."""
