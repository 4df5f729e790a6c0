"""The physics world (placeholder until the rigid-body core lands)."""


class World:
    def step(self, dt: float) -> None:
        return
