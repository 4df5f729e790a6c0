"""Rotation conversions (plain numpy): a re-export of ``ae3d._math``, their one home."""

from ae3d._math import mat_to_quat, quat_to_mat  # noqa: F401
