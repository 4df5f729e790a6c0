"""Shared test set-up: tests/ on sys.path (for tests/reference.py and shared fixtures)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
