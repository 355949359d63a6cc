"""Jinja2 templates and static assets of the HTML report (package data)."""
