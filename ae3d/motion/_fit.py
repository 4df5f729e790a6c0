"""Fitting a ragdoll to a figure's rig (``ragdoll_for_rig``): capsules to the rig's proportions.

The reference ragdoll has fixed proportions; a figure of others
trailed it by up to 2 cm. ``ragdoll_for_rig`` builds the reference ragdoll scaled to the rig's
height (masses with scale³, budgets with scale⁴) and then fits every capsule to the rig's own
bones: joints at the rig's joints (hips, knees, ankles, lumbar, chest, neck, shoulders,
elbows), capsules along the bones between them, their radii from the skinned mesh's widths, the
forearm to the fingertips, the calf (without feet) to the sole, the neck to the head's top. The
bodies' rest rotations are the reference's (``human.BONE_REST_QUAT``), tilted where a rig's
bone is not where the reference's is. Joint frames, limits and budgets are the reference's.

The fitted ragdoll is then dressed in the rig (``_dress.py``), so poses map both ways exactly.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ae3d import human
from ae3d._math import quat_conj as _qconj
from ae3d._math import quat_mul as _qmul
from ae3d._math import quat_pos as _qpos
from ae3d._math import quat_rot as _qrot
from ae3d._math import quat_yaw as _qyaw
from ae3d.physics import _api_bodies as B
from ae3d.physics import _api_joints as J
from ae3d.physics import _layout as L
from ae3d.physics._kernels_joints import relative_rotations
from ae3d.physics._ragdoll import Ragdoll, _ankles, check_fitted, ragdoll
from ae3d.physics._world import shape_mass

from ._dress import BONE_ROLES, _dress, _rest_world, _rig_frame, _rig_of, _roles, put_body

__all__ = ["ragdoll_for_rig"]

_REF_HEIGHT = human.HEIGHT
_REF_HIPS_Y = 0.98          # the reference pelvis bone's height (human.bone_rest(PELVIS))


def _figure_of_rig(e: Any, rig: Any) -> Any:
    """The engine's figure that owns ``rig`` (for its meshes), or None."""
    try:
        from ae3d import figure as _fig
        for f in _fig.figures(e):
            if f.rig is rig:
                return f
    except Exception:  # noqa: BLE001 - a rig outside any figure: no mesh to measure
        return None
    return None




def _skinned_rest(fig: Any, rest_world: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(v, 3) world vertices of the figure's meshes in the rest pose and (v,) the rig bone each
    follows most; None without meshes."""
    if fig is None:
        return None
    model = getattr(fig, "model", None)
    if model is None or not model.meshes:
        return None
    pos, bone = [], []
    for mesh in model.meshes:
        skin = model.skins[mesh.skin]
        mats = np.einsum("jab,jbc->jac", rest_world[skin.bones], skin.inverse_binds)
        wts = mesh.weights
        v = np.zeros((mesh.positions.shape[0], 3))
        ph = np.concatenate([mesh.positions, np.ones((mesh.positions.shape[0], 1))], axis=1)
        for k in range(4):
            m = mats[mesh.joints[:, k]]
            v += wts[:, k:k + 1] * np.einsum("vab,vb->va", m, ph)[:, :3]
        top = mesh.joints[np.arange(len(wts)), np.argmax(wts, axis=1)]
        pos.append(v)
        bone.append(skin.bones[top])
    return np.concatenate(pos), np.concatenate(bone)


def _descendants_until(rig: Any, start: int, stop: set[int]) -> list[int]:
    """``start`` and the bones below it, not entering any bone of ``stop``."""
    out, todo = [], [start]
    children = rig.template.children
    while todo:
        i = todo.pop()
        out.append(i)
        todo.extend(c for c in children[i] if c not in stop)
    return out


def _perp(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors across ``d``: the first as near +x as can be."""
    u = np.array([1.0, 0.0, 0.0]) - d * d[0]
    if np.linalg.norm(u) < 1e-6:
        u = np.array([0.0, 0.0, 1.0]) - d * d[2]
    u /= np.linalg.norm(u)
    return u, np.cross(d, u)


def _fit_geometry(rig: Any, roles: dict[str, int], world: np.ndarray, origin: np.ndarray,
                  yaw: float, fig: Any, feet: bool) -> dict[str, Any]:
    """Each bone's fitted capsule and each joint's point, in the figure's frame F (origin on the
    ground under the hips, facing +z, left +x; m)."""
    c, s = math.cos(yaw), math.sin(yaw)
    rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])  # F -> world

    def to_f(p):
        return rot.T @ (np.asarray(p) - origin)

    P = {role: to_f(world[i, :3, 3]) for role, i in roles.items()}
    mesh = _skinned_rest(fig, world)
    if mesh is not None:
        verts = (mesh[0] - origin) @ rot   # rows: rot.T @ v
        vbone = mesh[1]
    mapped = {roles[BONE_ROLES[b]] for b in range(len(BONE_ROLES)) if BONE_ROLES[b] in roles}

    def pts(*role_names, extend=True):
        """F vertices that follow the given roles' bones (and, with ``extend``, the unmapped
        bones below them); None without a mesh or when there are none."""
        if mesh is None:
            return None
        bones: set[int] = set()
        for rn in role_names:
            if rn not in roles:
                continue
            i = roles[rn]
            bones.update(_descendants_until(rig, i, mapped - {i}) if extend else [i])
        sel = np.isin(vbone, list(bones))
        return verts[sel] if np.any(sel) else None

    k_height = None
    if mesh is not None:
        top = float(np.max(verts[:, 1]))
        k_height = top / _REF_HEIGHT
    hips_y = P["Hips"][1]
    if k_height is None or not k_height > 0.0:
        k_height = hips_y / _REF_HIPS_Y
    k = k_height
    geo: dict[str, Any] = {"k": k, "bones": {}, "joints": {}}

    def across(v, d, centre):
        """Mean half-width of vertices ``v`` across direction ``d`` about ``centre``."""
        u1, u2 = _perp(d)
        rel = v - centre
        a, b = rel @ u1, rel @ u2
        return 0.25 * ((a.max() - a.min()) + (b.max() - b.min()))

    up = np.array([0.0, 1.0, 0.0])

    # --- trunk: lateral capsules (local y across the body), centred between their joints
    sp, ch, nk = P["Spine"], P["Chest"], P["Neck"]
    trunk = {
        human.BONE_PELVIS: (P["Hips"], None, ("Hips",)),
        human.BONE_SPINE_01: (0.5 * (sp + ch), ch - sp, ("Spine",)),
        human.BONE_SPINE_03: (0.5 * (ch + nk), nk - ch, ("Chest",)),
    }
    for b, (centre, d, rn) in trunk.items():
        ref_c, ref_q, (ref_r, ref_hs) = human.bone_rest(b)
        q = np.array(ref_q, dtype=np.float64)
        if d is not None and np.linalg.norm(d) > 1e-9:
            q = _qmul(J.shortest_arc(up, d / np.linalg.norm(d)), q)
        v = pts(*rn, extend=(b != human.BONE_SPINE_03))  # not the chest's shoulders
        centre = centre.copy()
        if v is not None:
            depth = 0.5 * (v[:, 2].max() - v[:, 2].min())
            half_w = 0.5 * (v[:, 0].max() - v[:, 0].min())
            centre[2] = 0.5 * (v[:, 2].max() + v[:, 2].min())
            rad = depth
            hs = max(half_w - rad, 0.25 * rad)
        else:
            rad, hs = ref_r * k, ref_hs * k
        geo["bones"][b] = (centre, q, rad, hs)

    # --- neck and head: one capsule from just above the neck joint to the head's top
    head = P["Head"]
    d = head - nk
    d = d / np.linalg.norm(d) if np.linalg.norm(d) > 1e-9 else up
    v = pts("Neck", "Head")
    if v is not None:
        top = float(np.max((v - nk) @ d))
        vh = pts("Head", extend=False)
        rad = across(vh if vh is not None else v, d, head)
    else:
        top = (1.80 - 1.50) * k
        rad = 0.10 * k
    lo = 0.3 * rad
    hi = max(top - rad, lo + 0.02 * k)
    geo["bones"][human.BONE_NECK] = (nk + d * 0.5 * (lo + hi), _qmul(J.shortest_arc(up, d),
                                     human.BONE_REST_QUAT[human.BONE_NECK]), rad,
                                     0.5 * (hi - lo))

    # --- limbs: capsules from joint to joint
    def limb(b, a_role, b_role, own_roles, tip_roles=None, tip=None):
        pa, pb = P[a_role], P[b_role]
        d = pb - pa
        length = float(np.linalg.norm(d))
        d = d / length
        along = _qrot(human.BONE_REST_QUAT[b], human.BONE_ALONG_LOCAL[b])
        q = _qmul(J.shortest_arc(along, d), human.BONE_REST_QUAT[b])
        v = pts(*own_roles, extend=False)
        _, _, (ref_r, _) = human.bone_rest(b)
        rad = across(v, d, pa) if v is not None else ref_r * k
        end = length
        vt = pts(*tip_roles) if tip_roles is not None else None
        if vt is not None:
            end = float(np.max((vt - pa) @ d)) - rad
        elif tip is not None:
            end = tip(rad, length)
        end = max(end, 0.02 * k)
        geo["bones"][b] = (pa + d * 0.5 * end, q, rad, 0.5 * end)
        return d

    for side, ua, la, th, ca, fo in (("L", human.BONE_UPPERARM_L, human.BONE_LOWERARM_L,
                                       human.BONE_THIGH_L, human.BONE_CALF_L, human.BONE_FOOT_L),
                                      ("R", human.BONE_UPPERARM_R, human.BONE_LOWERARM_R,
                                       human.BONE_THIGH_R, human.BONE_CALF_R, human.BONE_FOOT_R)):
        limb(ua, f"UpperArm{side}", f"LowerArm{side}", (f"UpperArm{side}",))
        # the forearm's capsule reaches the fingertips (without a mesh, as the reference's:
        # 0.43 m from the elbow for a forearm of 0.24 m)
        limb(la, f"LowerArm{side}", f"Hand{side}", (f"LowerArm{side}",),
             tip_roles=(f"LowerArm{side}",), tip=lambda rad, length: length * 0.43 / 0.24 - rad)
        limb(th, f"Thigh{side}", f"Shin{side}", (f"Thigh{side}",))
        knee, ankle = P[f"Shin{side}"], P[f"Foot{side}"]
        vf = pts(f"Foot{side}")
        sole = float(vf[:, 1].min()) if vf is not None else 0.0
        if feet:
            limb(ca, f"Shin{side}", f"Foot{side}", (f"Shin{side}",))
            # the foot: a capsule along the figure's forward under the ankle, on the sole
            rad = max(0.5 * (ankle[1] - sole), 0.01 * k)
            if vf is not None:
                heel, toe = float(vf[:, 2].min()), float(vf[:, 2].max())
            else:
                heel, toe = ankle[2] - 0.08 * k, ankle[2] + 0.18 * k
            hs = max(0.5 * (toe - heel) - rad, 0.01 * k)
            centre = np.array([ankle[0], sole + rad, 0.5 * (heel + toe)])
            geo["bones"][fo] = (centre, np.array(human.BONE_REST_QUAT[fo]), rad, hs)
        else:
            # the calf's capsule reaches the sole (the foot's mass merged into it)
            def to_sole(rad, length, knee=knee, ankle=ankle, sole=sole):
                d = (ankle - knee) / np.linalg.norm(ankle - knee)
                return (knee[1] - sole - rad) / max(-d[1], 1e-3)
            limb(ca, f"Shin{side}", f"Foot{side}", (f"Shin{side}",), tip=to_sole)

    # --- joints at the rig's joints: each bone's joint is where its rig bone starts
    for b in range(1, len(BONE_ROLES)):
        if BONE_ROLES[b] in P:
            geo["joints"][b] = P[BONE_ROLES[b]]
    geo["rot"] = rot
    return geo


def _refit(r: Ragdoll, geo: dict[str, Any], origin: np.ndarray, yaw: float) -> None:
    """Reshape and move ``r``'s bodies to ``geo`` and rebuild its joints' frames there."""
    w = r.engine.physics
    e = r.engine
    rot = geo["rot"]
    qy = _qyaw(yaw)
    n = r.bones
    wp = np.zeros((n, 3))
    wq = np.zeros((n, 4))
    for b in range(n):
        centre, q, rad, hs = geo["bones"][b]
        wp[b] = origin + rot @ centre
        wq[b] = _qpos(_qmul(qy, q))
        s = int(r.bodies[b])
        h = w.handle(s)
        dims = (float(rad), float(hs), 0.0)
        w.bf[s, L.B_DIMS:L.B_DIMS + 3] = dims
        _, inert, radius = shape_mass(L.SHAPE_CAPSULE, dims)
        m = w.bf[s, L.B_MASS]
        w.bf[s, L.B_INV_I:L.B_INV_I + 3] = [1.0 / (m * i) for i in inert]
        if b == human.BONE_PELVIS:  # raised as the reference ragdoll's (human.py)
            w.bf[s, L.B_INV_I:L.B_INV_I + 3] /= human.PELVIS_INERTIA_SCALE
        w.bf[s, L.B_RADIUS] = radius
        put_body(e, h, wp[b], wq[b])
    for b in range(1, n):
        j = int(r.joints[b])
        spec = human.JOINTS[b]
        parent = human.BONE_PARENT[b]
        qa, qb = wq[parent], wq[b]
        pa, pb = wp[parent], wp[b]
        point = origin + rot @ geo["joints"][b]
        if spec["kind"] == human.JOINT_KIND_BALL:
            centre = _qrot(qy, spec["centre"])
            fa = J.frame_from_axes(centre, _qrot(qy, spec["ref"]))
            along = _qrot(qb, human.BONE_ALONG_LOCAL[b])
            fb = _qmul(J.shortest_arc(centre, along), fa)
        else:
            fa = fb = J.frame_from_axes(_qrot(qy, spec["axis"]))
        jf = w.jf
        jf[j, L.J_PA:L.J_PA + 3] = _qrot(_qconj(qa), point - pa)
        jf[j, L.J_PB:L.J_PB + 3] = _qrot(_qconj(qb), point - pb)
        jf[j, L.J_QA:L.J_QA + 4] = _qmul(_qconj(qa), fa)
        jf[j, L.J_QB:L.J_QB + 4] = _qmul(_qconj(qb), fb)
        jf[j, L.J_TARGET:L.J_TARGET + 4] = _qpos(_qmul(_qconj(qa), qb))
        jf[j, L.J_L_POINT:L.J_L_LOCK + 2] = 0.0
    out = np.zeros((n - 1, 4))
    relative_rotations(w.bf, w.ji, r.joints[1:], out)
    r.rest_targets = out.copy()
    # unjointed bodies that overlap at rest never collide (as the reference's trunk and head)
    jointed = {(min(b, human.BONE_PARENT[b]), max(b, human.BONE_PARENT[b])) for b in range(1, n)}
    for a in range(n):
        for b in range(a + 1, n):
            if (a, b) in jointed:
                continue
            if _capsule_gap(w, int(r.bodies[a]), int(r.bodies[b])) < 0.005:
                w.ignore_pair(int(r.bodies[a]), int(r.bodies[b]))
    for s in r.bodies:
        w.wake(int(s))


def _capsule_gap(w: Any, a: int, b: int) -> float:
    """Distance (m) between two capsules' surfaces (negative: overlapping), sampled."""
    def seg(s):
        p = w.bf[s, L.B_POS:L.B_POS + 3]
        q = w.bf[s, L.B_QUAT:L.B_QUAT + 4]
        hs = w.bf[s, L.B_DIMS + 1]
        ax = _qrot(q, (0.0, 1.0, 0.0))
        return p - ax * hs, p + ax * hs, w.bf[s, L.B_DIMS]
    a0, a1, ra = seg(a)
    b0, b1, rb = seg(b)
    t = np.linspace(0.0, 1.0, 33)
    pa = a0[None] + (a1 - a0)[None] * t[:, None]
    pb = b0[None] + (b1 - b0)[None] * t[:, None]
    dist = np.linalg.norm(pa[:, None] - pb[None], axis=2).min()
    return float(dist - ra - rb)


def ragdoll_for_rig(e: Any, name: str, rig: Any, a: float = 8.0, b: float = 8.0,
                    fit: bool = True) -> Ragdoll:
    """A ragdoll made for a figure's rig (a Rig or a Figure), dressed in it.

    It is made where the rig's object stands (the ground at the root's height, under the hips
    of the rig's rest pose), turned to face the way the figure's feet point (its turn about
    +y), and scaled to the rig's height (the mesh's top, or the hips' height; masses with
    scale³, budgets with scale⁴). With ``fit`` (the default) its capsules are fitted to the
    rig's own proportions (see the module docstring); without, it is the reference ragdoll
    scaled. ``a``, ``b``: the joints' spring and the follow anchors' Hz (``physics.ragdoll``).
    The bodies stand in the rest pose; ``ragdoll_to_rig`` puts them on the rig's pose.

    ValueError for a rig in no humanoid naming (before anything is made)."""
    rg, fig = _rig_of(rig)
    _, roles = _roles(rg)  # a clear error before anything is made
    if fig is None:
        fig = _figure_of_rig(e, rg)
    world = _rest_world(rg)
    origin, yaw = _rig_frame(rg, world, roles)
    feet = _ankles(e)
    geo = _fit_geometry(rg, roles, world, origin, yaw, fig, feet)
    check_fitted(name, origin, a, b, geo)  # before anything is made: a broken rig leaves none
    r = ragdoll(e, name, origin, a, b, geo["k"])
    if fit:
        _refit(r, geo, origin, yaw)
    else:
        # the reference, turned about its feet's centre under the pelvis to face the feet's way
        w = e.physics
        qy = _qyaw(yaw)
        for bb in range(r.bones):
            s = int(r.bodies[bb])
            p = w.bf[s, L.B_POS:L.B_POS + 3].copy()
            q = w.bf[s, L.B_QUAT:L.B_QUAT + 4].copy()
            h = w.handle(s)
            B.set_position(e, h, origin + _qrot(qy, p - origin))
            B.set_rotation(e, h, _qpos(_qmul(qy, q)))
    _dress(r, rg if fig is None else fig, align=not fit, fitted=fit)
    return r
