"""Scenario tests for Shadowlord!: one named test per clause of docs/rules/shadowlord.md."""
