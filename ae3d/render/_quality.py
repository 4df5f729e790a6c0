"""Quality presets: what the renderer spends its fill and vertex work on.

Each choice is a compile-time shader variant (a ``#define``), not a uniform branch: a software
rasterizer (Mesa's llvmpipe) runs both sides of a uniform branch's cost in every fragment, so
``if (u_shadows == 0)`` saved nothing there.

``high``: the image of the renderer before the presets (4x MSAA, a 2048 shadow map filtered
3x3 for every caster, specular and rim light, the anti-aliased procedural ground grid, the
horde's bank blended between frames).

``low``: what a software GL can draw at the horde's scale: no MSAA; a real shadow map (512 over
its 14 m square, one filtered tap, read only by the ground about them and by the shapes: the
figures do not read it) for the shapes and the ``near_casters``
figures nearest the camera's target within ``near_shadow`` m of it, a soft dark disc ("blob")
under every other figure and horde instance within 45 m of the eye (fading out from 30 m), and
only those casters read the map; diffuse light and fog worked out at the vertices on figures (a
flat rigid mesh's light at each triangle's provoking vertex: ``flat_vertex``); only the depth
cleared (the sky and what stands before it cover every pixel); a cheap ground (the same
procedural grid under flat light, its light, fog and sRGB worked out at a 32x32 grid's corners);
sRGB from a square root instead of pow; the sky drawn last, only over the screen cells the
ground leaves bare; the horde's nearest bank frame; levels of detail by distance for figures and
horde alike, and beyond 25 m a horde instance is an impostor (a quad showing a picture of its
figure baked from the pose bank, lit per pixel from the picture's normals). FXAA was measured
and not taken: one full-screen pass costs as much CPU on llvmpipe as the 300-figure frame it
would smooth.

``auto`` (the default everywhere) picks ``low`` on a software GL (``GL_RENDERER`` names
llvmpipe, softpipe or SwiftShader) and ``high`` elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

QUALITIES = ("auto", "high", "low")
_SOFTWARE = ("llvmpipe", "softpipe", "swiftshader", "software rasterizer")


@dataclass(frozen=True)
class Quality:
    """One preset's settings (see the module docstring).

    samples: MSAA samples of the colour pass (0: none).
    shadow: "pcf3" (3x3 filtered taps), "tap1" (one filtered tap) or "off".
    shadow_size: the shadow map's side (texels).
    near_shadow: half side (m) of the shadow map's square about the camera's target and the
        reach of real shadows; 0: the whole map (as big as the camera's distance asks).
    near_casters: at most this many figures (the nearest the camera's target) cast into the
        map; 0: every figure.
    blobs: figures outside the map and horde instances get a blob instead of a cast shadow.
    lighting: "full" (ambient, sun, specular, rim) or "diffuse" (ambient and sun).
    ground: "full" (procedural anti-aliased grid, full lighting) or "cheap" (the same grid,
        flat light, the shadow map read only about the casters).
    fast_srgb: sRGB by ``1.138 sqrt(c) - 0.138 c`` (within 2 levels) instead of ``pow``.
    sky_last: draw the sky after the opaque geometry (its fill only where nothing else is).
    bank_nearest: the horde shows its bank's nearest frame (one texelFetch a column) instead
        of blending two (a filtered fetch).
    lod: distances (m) from the eye beyond which a figure or horde instance drops to the next
        coarser mesh (``_lod``; empty: always the full mesh).
    impostor: distance (m) from the eye beyond which a horde instance is a quad showing a
        picture of its figure baked from its pose bank (``_impostor``), unless the eye is
        steeply above it; 0: never.
    blob_reach: distance (m) from the eye beyond which no blob is drawn (they fade out over
        the last third of it); 0: blobs at any distance.
    flat_vertex: a rigid flat-shaded mesh (the box men) takes each triangle's normal from its
        provoking vertex and, unshadowed with diffuse light, its light too (``FLAT_VERTEX``,
        ``FLAT_LIT``) instead of screen derivatives a pixel.
    figure_shadows: the map's casters read the map on themselves (an arm's shadow on the
        chest, a figure in another's shadow); False: only the ground and the shapes read it,
        and every figure's diffuse light is worked out at its vertices (``FLAT_LIT``).
    """

    name: str
    samples: int
    shadow: str
    shadow_size: int
    near_shadow: float
    near_casters: int
    blobs: bool
    lighting: str
    ground: str
    fast_srgb: bool
    sky_last: bool
    bank_nearest: bool
    lod: tuple[float, ...]
    impostor: float = 0.0
    blob_reach: float = 0.0
    flat_vertex: bool = False
    figure_shadows: bool = True


HIGH = Quality("high", samples=4, shadow="pcf3", shadow_size=2048, near_shadow=0.0,
               near_casters=0, blobs=False, lighting="full", ground="full", fast_srgb=False,
               sky_last=False, bank_nearest=False, lod=())
LOW = Quality("low", samples=0, shadow="tap1", shadow_size=512, near_shadow=7.0,
              near_casters=16, blobs=True, lighting="diffuse", ground="cheap", fast_srgb=True,
              sky_last=True, bank_nearest=True, lod=(10.0, 15.0, 25.0), impostor=25.0,
              blob_reach=45.0, flat_vertex=True, figure_shadows=False)
PRESETS = {"high": HIGH, "low": LOW}


def is_software(ctx) -> bool:
    """True when the context's GL_RENDERER is a software rasterizer."""
    name = str(ctx.info.get("GL_RENDERER", "")).lower()
    return any(s in name for s in _SOFTWARE)


def resolve(quality: str | Quality, ctx, samples: int | None = None) -> Quality:
    """The preset ``quality`` ("auto", "high", "low" or a Quality) on ``ctx``; ``samples``
    (when not None) overrides its MSAA samples."""
    if isinstance(quality, Quality):
        q = quality
    else:
        if quality not in QUALITIES:
            raise ValueError(f"quality must be one of {', '.join(QUALITIES)}, got {quality!r}")
        if quality == "auto":
            quality = "low" if is_software(ctx) else "high"
        q = PRESETS[quality]
    if samples is not None:
        q = replace(q, samples=int(samples))
    return q
