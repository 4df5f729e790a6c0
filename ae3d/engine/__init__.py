"""ae3d.engine: the Engine, its objects and its frame loop.

```python
from ae3d import engine
e = engine.Engine()          # fixed step 1/60 s
e.run(seconds=3.0)           # frames of 1/60 s: fixed phase, then pose phase, each frame
engine.destroy(e, obj)       # the object and what it owns go at the end of the frame
e.close()                    # or: with engine.Engine() as e: ...
```
"""

from . import priorities
from ._engine import Engine, PhaseProcessor


def destroy(e: Engine, obj: int) -> None:
    """Destroy object ``obj`` of engine ``e`` at the end of the frame (spec #714).

    Everything the object owns (a figure, its active ragdoll's bodies...) is released then.
    Raises ValueError for a handle that is not an object, or one already destroyed.
    """
    e.destroy(obj)


__all__ = ["Engine", "PhaseProcessor", "destroy", "priorities"]
