"""GLSL 3.30 sources. Every geometry kind has one vertex shader and three fragment shaders:
``colour`` (lit, shadowed), ``depth`` (the shadow map) and ``pick`` (a uint id per pixel).

Quality is chosen at compile time (``program_source`` prepends ``#define``s; see _quality):
SHADOW_PCF3 / SHADOW_TAP1 (neither: no shadow map), LIGHT_DIFFUSE, FOG_VERTEX, GROUND_CHEAP,
FAST_SRGB, SKY_GRID; per draw
RIGID_SKIN (every vertex's weights 1, 0, 0, 0: one bone fetched), HORDE (instances posed from
a bank), BANK_NEAREST (the bank's nearest frame) and FLAT_NORMALS
(a welded flat-shaded mesh: face normals from screen derivatives of the world position), or
for a rigid one in low FLAT_VERTEX (the face normal from each triangle's provoking vertex) and
FLAT_LIT (its diffuse light there too, where no shadow map is read).

Skinning matrices live in float textures (RGBA32F), one matrix as four texels holding its
columns, one row of the texture per figure (or per frame of a horde's pose bank).
"""

VERSION = "#version 330 core\n"

# ------------------------------------------------------------------ shared lighting
LIGHTING = """
uniform vec3 u_sun_dir;      // unit vector towards the sun
uniform vec3 u_sun_color;    // linear RGB
uniform vec3 u_sky_color;    // ambient from above, linear RGB
uniform vec3 u_bounce_color; // ambient from below, linear RGB
uniform vec3 u_eye;          // camera position (m)
uniform vec3 u_fog_color;
uniform vec2 u_fog;          // fog start, end (m)

#if defined(SHADOW_PCF3) || defined(SHADOW_TAP1)
uniform mat4 u_light_vp;
uniform sampler2DShadow u_shadow;
uniform float u_shadow_texel;
uniform float u_shadow_bias;  // depth bias in the shadow map's depth units (a few cm)

float shadow_at(vec3 wp, vec3 n) {
    // normal offset + slope bias keep the lit side free of acne
    float ndl = clamp(dot(n, u_sun_dir), 0.0, 1.0);
    vec4 lp = u_light_vp * vec4(wp + n * (0.02 + 0.03 * (1.0 - ndl)), 1.0);
    vec3 p = lp.xyz / lp.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
#ifdef SHADOW_PCF3
    float s = 0.0;
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
            s += texture(u_shadow, vec3(p.xy + vec2(dx, dy) * u_shadow_texel, p.z - u_shadow_bias));
    return s / 9.0;
#else
    return texture(u_shadow, vec3(p.xy, p.z - u_shadow_bias));  // one bilinear compare
#endif
}
#else
float shadow_at(vec3 wp, vec3 n) { return 1.0; }
#endif

#ifdef FOG_VERTEX
in float v_fog;  // the fog, worked out at the vertices (VERT_FOG)
float fog_at(vec3 wp) { return v_fog; }
#else
float fog_at(vec3 wp) {
    float d = length(u_eye - wp);
    return clamp((d - u_fog.x) / max(u_fog.y - u_fog.x, 1e-3), 0.0, 1.0);
}
#endif

vec3 shade(vec3 base, vec3 n, vec3 wp, float shininess) {
    float ndl = max(dot(n, u_sun_dir), 0.0);
    float sh = ndl > 0.0 ? shadow_at(wp, n) : 0.0;
    vec3 amb = mix(u_bounce_color, u_sky_color, n.y * 0.5 + 0.5);
#ifdef LIGHT_DIFFUSE
    vec3 c = base * (amb + u_sun_color * ndl * sh);
#else
    vec3 v = normalize(u_eye - wp);
    vec3 h = normalize(v + u_sun_dir);
    float spec = shininess * pow(max(dot(n, h), 0.0), 24.0) * ndl * sh;
    float rim = 0.12 * pow(1.0 - max(dot(n, v), 0.0), 3.0);   // separates a figure from the ground
    vec3 c = base * (amb + u_sun_color * ndl * sh) + vec3(spec) + base * rim;
#endif
    return mix(c, u_fog_color, fog_at(wp));
}

#ifdef FAST_SRGB
// c^(1/2.2) within 2 levels of 255 over 0..1 from one square root (pow is exp and log on
// llvmpipe: 3 ms of a full 1280x720 screen)
vec4 to_srgb(vec3 c) { c = clamp(c, 0.0, 1.0); return vec4(1.138 * sqrt(c) - 0.138 * c, 1.0); }
#else
vec4 to_srgb(vec3 c) { return vec4(pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0); }
#endif
"""

FRAG_COLOUR = VERSION + LIGHTING + """
in vec3 v_wp; in vec3 v_n; in vec4 v_color; flat in uint v_id;
out vec4 f_color;
#ifdef FLAT_VERTEX
flat in vec3 v_face;
#ifdef FLAT_LIT
flat in vec3 v_lit;
#endif
#endif
void main() {
#ifdef FLAT_LIT
    // lit at the triangle's provoking vertex (VERT_SKINNED): only the fog and sRGB a pixel
    f_color = to_srgb(mix(v_lit, u_fog_color, fog_at(v_wp)));
    return;
#endif
#if defined(FLAT_VERTEX)
    vec3 n = v_face;
#elif defined(FLAT_NORMALS)
    // a flat face's normal, towards the viewer as the flipped one below is
    vec3 n = normalize(cross(dFdx(v_wp), dFdy(v_wp)));
#else
    vec3 n = normalize(v_n);
    if (!gl_FrontFacing) n = -n;
#endif
    f_color = to_srgb(shade(v_color.rgb, n, v_wp, 0.25));
    f_color.a = v_color.a;
}
"""

FRAG_DEPTH = VERSION + """
in vec3 v_wp; in vec3 v_n; in vec4 v_color; flat in uint v_id;
void main() {}
"""

FRAG_PICK = VERSION + """
in vec3 v_wp; in vec3 v_n; in vec4 v_color; flat in uint v_id;
out uint f_id;
void main() { f_id = v_id; }
"""

# FOG_VERTEX (low): the fog at a figure's or shape's vertices, interpolated (a distance and a
# square root a pixel less)
VERT_FOG = """
#ifdef FOG_VERTEX
uniform vec3 u_eye;
uniform vec2 u_fog;
out float v_fog;
void fog_vertex(vec3 wp) {
    v_fog = clamp((length(u_eye - wp) - u_fog.x) / max(u_fog.y - u_fog.x, 1e-3), 0.0, 1.0);
}
#else
void fog_vertex(vec3 wp) {}
#endif
"""

# ------------------------------------------------------------------ skinned figures and hordes
VERT_SKINNED = VERSION + VERT_FOG + """
in vec3 in_pos; in vec3 in_normal; in vec4 in_joints; in vec4 in_weights; in vec3 in_color;
in vec4 i_place;   // horde: x, y, z (m), heading (rad); figures: unused
in vec4 i_tint;    // rgb multiplier, phase 0..1 (horde)
in uint i_row;     // figures: row of the bone texture
in uint i_id;      // pick id
uniform sampler2D u_bones;   // figures: rows hold world skinning matrices; HORDE: the bank
uniform int u_frames;        // horde: frames in the bank
uniform float u_facing;      // horde: turn added to every heading (rad)
uniform mat4 u_vp;
out vec3 v_wp; out vec3 v_n; out vec4 v_color; flat out uint v_id;
#ifdef FLAT_VERTEX
// a rigid flat mesh (low): each triangle's last vertex carries its face normal (_lod's
// _provoking), passed flat: no screen derivatives a pixel
flat out vec3 v_face;
#ifdef FLAT_LIT
// ... and where no shadow map is read, its diffuse light too (shade()'s LIGHT_DIFFUSE, unshadowed)
uniform vec3 u_sun_dir; uniform vec3 u_sun_color;
uniform vec3 u_sky_color; uniform vec3 u_bounce_color;
flat out vec3 v_lit;
#endif
#endif

mat4 bone(int j, int row) {
    return mat4(texelFetch(u_bones, ivec2(j * 4 + 0, row), 0),
                texelFetch(u_bones, ivec2(j * 4 + 1, row), 0),
                texelFetch(u_bones, ivec2(j * 4 + 2, row), 0),
                texelFetch(u_bones, ivec2(j * 4 + 3, row), 0));
}

mat4 bank(int j, float v) {
    float w = float(textureSize(u_bones, 0).x);
    float u = (float(j * 4) + 0.5) / w;
    return mat4(texture(u_bones, vec2(u, v)), texture(u_bones, vec2(u + 1.0 / w, v)),
                texture(u_bones, vec2(u + 2.0 / w, v)), texture(u_bones, vec2(u + 3.0 / w, v)));
}

void main() {
    ivec4 jn = ivec4(in_joints + 0.5);
    mat4 skin;
    mat4 model = mat4(1.0);
    // rigid skins (one weight) are common: fetch only the bones that weigh anything;
    // RIGID_SKIN (a mesh whose every vertex has the weights 1, 0, 0, 0): one bone, no
    // branches (llvmpipe runs a vertex shader's lanes together: the tests cost in each)
#ifndef HORDE
    int row = int(i_row);
#ifdef RIGID_SKIN
    skin = bone(jn.x, row);
#else
    skin = in_weights.x * bone(jn.x, row);
    if (in_weights.y > 0.0) skin += in_weights.y * bone(jn.y, row);
    if (in_weights.z > 0.0) skin += in_weights.z * bone(jn.z, row);
    if (in_weights.w > 0.0) skin += in_weights.w * bone(jn.w, row);
#endif
#else
#ifdef BANK_NEAREST
    // the bank's nearest frame: plain fetches, no filtering (a quarter of the texel reads)
    int row = int(floor(fract(i_tint.w) * float(u_frames) + 0.5)) % u_frames;
#ifdef RIGID_SKIN
    skin = bone(jn.x, row);
#else
    skin = in_weights.x * bone(jn.x, row);
    if (in_weights.y > 0.0) skin += in_weights.y * bone(jn.y, row);
    if (in_weights.z > 0.0) skin += in_weights.z * bone(jn.z, row);
    if (in_weights.w > 0.0) skin += in_weights.w * bone(jn.w, row);
#endif
#else
    // the bank texture filters linearly along its frames (rows) and repeats: one
    // filtered fetch per column blends this frame with the next, the last with the first
    float v = fract(i_tint.w) + 0.5 / float(u_frames);
    skin = in_weights.x * bank(jn.x, v);
    if (in_weights.y > 0.0) skin += in_weights.y * bank(jn.y, v);
    if (in_weights.z > 0.0) skin += in_weights.z * bank(jn.z, v);
    if (in_weights.w > 0.0) skin += in_weights.w * bank(jn.w, v);
#endif
    float a = i_place.w + u_facing;
    float c = cos(a), s = sin(a);
    model = mat4(vec4(c, 0.0, -s, 0.0), vec4(0.0, 1.0, 0.0, 0.0),
                 vec4(s, 0.0, c, 0.0), vec4(i_place.xyz, 1.0));
#endif
    mat4 m = model * skin;
    vec4 wp = m * vec4(in_pos, 1.0);
    v_wp = wp.xyz;
    v_n = mat3(m) * in_normal;
    v_color = vec4(in_color * i_tint.rgb, 1.0);
    v_id = i_id;
    gl_Position = u_vp * wp;
    fog_vertex(wp.xyz);
#ifdef FLAT_VERTEX
    vec3 fn = mat3(m) * in_normal;
    v_face = fn * inversesqrt(max(dot(fn, fn), 1e-20));
#ifdef FLAT_LIT
    float ndl = max(dot(v_face, u_sun_dir), 0.0);
    v_lit = v_color.rgb * (mix(u_bounce_color, u_sky_color, v_face.y * 0.5 + 0.5)
                           + u_sun_color * ndl);
#endif
#endif
#ifdef HORDE
    // a parked instance (a million metres off) is drawn by nobody, whatever the far plane
    if (dot(i_place.xyz, i_place.xyz) > 1.0e10)
        gl_Position = vec4(0.0, 0.0, 2.0, 0.0);
#endif
}
"""

# ------------------------------------------------------------------ primitive shapes
VERT_SHAPE = VERSION + VERT_FOG + """
in vec3 in_pos; in vec3 in_normal; in float in_cap;
in mat4 i_model;   // rotation and translation
in vec4 i_dims;    // sphere r; capsule r, half segment; box half extents; cylinder r, half height
in vec4 i_color;   // linear RGB, alpha
in uint i_id;
uniform int u_kind; // 0 sphere, 1 capsule, 2 box, 3 cylinder
uniform mat4 u_vp;
out vec3 v_wp; out vec3 v_n; out vec4 v_color; flat out uint v_id;
void main() {
    vec3 p;
    if (u_kind == 0) p = in_pos * i_dims.x;
    else if (u_kind == 1) p = in_pos * i_dims.x + vec3(0.0, in_cap * i_dims.y, 0.0);
    else if (u_kind == 2) p = in_pos * i_dims.xyz;
    else p = vec3(in_pos.x * i_dims.x, in_pos.y * i_dims.y, in_pos.z * i_dims.x);
    vec4 wp = i_model * vec4(p, 1.0);
    v_wp = wp.xyz;
    v_n = mat3(i_model) * in_normal;
    v_color = i_color;
    v_id = i_id;
    gl_Position = u_vp * wp;
    fog_vertex(wp.xyz);
}
"""

# ------------------------------------------------------------------ the ground
VERT_GROUND = VERSION + """
in vec2 in_xz;         // -1..1
uniform vec3 u_centre; // m
uniform float u_half;  // m
uniform vec2 u_aspect; // GROUND_RECT: the half extents' ratios along x and z (<= 1)
uniform uint u_id;
uniform mat4 u_vp;
out vec3 v_wp; out vec3 v_n; out vec4 v_color; flat out uint v_id;
#ifdef GROUND_CHEAP
// The cheap ground's light is flat and its fog smooth: both are worked out at the corners of
// a fine grid of the ground (GROUND_GRID cells a side), already in sRGB, for the plain ground
// and for its lines, sunlit and in shadow. The fragment only mixes them by the grid line and
// the shadow (per pixel this was 20 of the ground's 26 CPU-ms on llvmpipe at 1280x720).
uniform vec3 u_ground_color;
uniform vec3 u_line_color;
uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform vec3 u_eye;
uniform vec3 u_fog_color;
uniform vec2 u_fog;
out vec3 v_plain; out vec3 v_line; out vec3 v_plain_dark; out vec3 v_line_dark;
#if defined(SHADOW_PCF3) || defined(SHADOW_TAP1)
// the sun's projection is orthographic: a ground point's place in the map is affine in it,
// interpolated exactly from the corners (no matrix product a pixel)
uniform mat4 u_light_vp;
out vec3 v_lp;
#endif
vec3 srgb3(vec3 c) {
    c = clamp(c, 0.0, 1.0);
#ifdef FAST_SRGB
    return 1.138 * sqrt(c) - 0.138 * c;
#else
    return pow(c, vec3(1.0 / 2.2));
#endif
}
void ground_colours(vec3 wp) {
    float fog = clamp((length(u_eye - wp) - u_fog.x) / max(u_fog.y - u_fog.x, 1e-3), 0.0, 1.0);
    vec3 lit = u_sky_color + u_sun_color * max(u_sun_dir.y, 0.0);
    v_plain = srgb3(mix(u_ground_color * lit, u_fog_color, fog));
    v_line = srgb3(mix(u_line_color * lit, u_fog_color, fog));
    v_plain_dark = srgb3(mix(u_ground_color * u_sky_color, u_fog_color, fog));
    v_line_dark = srgb3(mix(u_line_color * u_sky_color, u_fog_color, fog));
#if defined(SHADOW_PCF3) || defined(SHADOW_TAP1)
    // shadow_at's normal offset for the ground's up normal
    float ndl = clamp(u_sun_dir.y, 0.0, 1.0);
    vec4 lp = u_light_vp * vec4(wp + vec3(0.0, 0.02 + 0.03 * (1.0 - ndl), 0.0), 1.0);
    v_lp = lp.xyz / lp.w * 0.5 + 0.5;
#endif
}
#endif
void main() {
#ifdef GROUND_RECT
    vec2 h = u_half * u_aspect;
#else
    vec2 h = vec2(u_half);
#endif
    vec3 wp = vec3(u_centre.x + in_xz.x * h.x, u_centre.y, u_centre.z + in_xz.y * h.y);
    v_wp = wp; v_n = vec3(0.0, 1.0, 0.0); v_color = vec4(1.0); v_id = u_id;
    gl_Position = u_vp * vec4(wp, 1.0);
#ifdef GROUND_CHEAP
    ground_colours(wp);
#endif
}
"""

FRAG_GROUND = VERSION + LIGHTING + """
in vec3 v_wp; in vec3 v_n; in vec4 v_color; flat in uint v_id;
uniform vec3 u_ground_color;
uniform vec3 u_line_color;
out vec4 f_color;
float grid(vec2 p, float spacing, float width) {
    vec2 q = p / spacing;
    vec2 w = fwidth(q);
    vec2 g = abs(fract(q - 0.5) - 0.5) / max(w, vec2(1e-6));
    float line = 1.0 - min(min(g.x, g.y) / max(width, 1e-3), 1.0);
    // fade lines whose cells get smaller than a few pixels (no moire far away)
    return line * clamp(1.0 - max(w.x, w.y) * 3.0, 0.0, 1.0);
}
#ifdef GROUND_CHEAP
// the same grid under flat light, its colours from the vertices (VERT_GROUND). A mipmapped
// grid texture was tried: its trilinear fetch costs 14 CPU-ms a 1280x720 screen on llvmpipe,
// the two procedural grids 5.
in vec3 v_plain; in vec3 v_line; in vec3 v_plain_dark; in vec3 v_line_dark;
#if defined(SHADOW_PCF3) || defined(SHADOW_TAP1)
in vec3 v_lp;
float ground_shadow() {
    vec3 p = v_lp;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
    return texture(u_shadow, vec3(p.xy, p.z - u_shadow_bias));
}
#endif
void main() {
    // grid(p, 1, 1) and grid(p, 5, 1.6) with one fwidth and one division between them (the
    // 5 m grid's fwidth is a fifth of the 1 m grid's)
    vec2 p = v_wp.xz;
    vec2 inv = 1.0 / max(fwidth(p), vec2(1e-6));    // pixels a metre
    vec2 g1 = abs(fract(p - 0.5) - 0.5) * inv;
    vec2 g5 = abs(fract(p * 0.2 - 0.5) - 0.5) * (5.0 / 1.6) * inv;
    float ww = 1.0 / min(inv.x, inv.y);              // m a pixel, the coarser way
    float minor = (1.0 - min(min(g1.x, g1.y), 1.0)) * clamp(1.0 - ww * 3.0, 0.0, 1.0);
    float major = (1.0 - min(min(g5.x, g5.y), 1.0)) * clamp(1.0 - ww * 0.6, 0.0, 1.0);
    float m = max(minor * 0.55, major * 0.9);
    vec3 c = mix(v_plain, v_line, m);
#if defined(SHADOW_PCF3) || defined(SHADOW_TAP1)
    c = mix(mix(v_plain_dark, v_line_dark, m), c, ground_shadow());
#endif
    f_color = vec4(c, 1.0);
}
#else
void main() {
    vec2 p = v_wp.xz;
    float minor = grid(p, 1.0, 1.0);
    float major = grid(p, 5.0, 1.6);
    vec3 base = mix(u_ground_color, u_line_color, max(minor * 0.55, major * 0.9));
    f_color = to_srgb(shade(base, vec3(0.0, 1.0, 0.0), v_wp, 0.0));
}
#endif
"""

# ------------------------------------------------------------------ the sky (full-screen)
VERT_SKY = VERSION + """
in vec2 in_xz;
uniform mat4 u_inv_vp;
uniform vec3 u_fog_color;
uniform vec3 u_zenith_color;
out vec2 v_uv;
out vec3 v_c;
vec3 sky(vec2 uv) {
    vec4 a = u_inv_vp * vec4(uv, -1.0, 1.0);
    vec4 b = u_inv_vp * vec4(uv, 1.0, 1.0);
    vec3 d = normalize(b.xyz / b.w - a.xyz / a.w);
    return mix(u_fog_color, u_zenith_color, clamp(d.y * 2.0, 0.0, 1.0));
}
void main() {
    v_uv = in_xz;
#ifdef SKY_GRID
    // the gradient at the corners of a fine screen grid, interpolated: no per-pixel unproject
    v_c = sky(in_xz);
#else
    v_c = vec3(0.0);
#endif
    gl_Position = vec4(in_xz, 0.9999, 1.0);
}
"""

FRAG_SKY = VERSION + """
in vec2 v_uv;
in vec3 v_c;
uniform mat4 u_inv_vp;
uniform vec3 u_fog_color;
uniform vec3 u_zenith_color;
out vec4 f_color;
void main() {
#ifdef SKY_GRID
    vec3 c = v_c;
#else
    vec4 a = u_inv_vp * vec4(v_uv, -1.0, 1.0);
    vec4 b = u_inv_vp * vec4(v_uv, 1.0, 1.0);
    vec3 d = normalize(b.xyz / b.w - a.xyz / a.w);
    vec3 c = mix(u_fog_color, u_zenith_color, clamp(d.y * 2.0, 0.0, 1.0));
#endif
#ifdef FAST_SRGB
    f_color = vec4(1.138 * sqrt(c) - 0.138 * c, 1.0);
#else
    f_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
#endif
}
"""

# ------------------------------------------------------------------ blob shadows (low quality)
VERT_BLOB = VERSION + """
in vec2 in_xz;          // -1..1
in vec4 i_blob;         // centre x, z (m), radius (m), strength 0..1
uniform float u_ground_y;
uniform mat4 u_vp;
uniform vec3 u_eye;
uniform vec2 u_fog;
out vec2 v_uv; out float v_k;
void main() {
    v_uv = in_xz;
    // a centimetre above the ground: no fight with its depth
    vec3 wp = vec3(i_blob.x + in_xz.x * i_blob.z, u_ground_y + 0.01, i_blob.y + in_xz.y * i_blob.z);
    gl_Position = u_vp * vec4(wp, 1.0);
    // the fog at the blob's centre: the strength left of it, for the whole (small) disc
    float d = length(u_eye - vec3(i_blob.x, u_ground_y, i_blob.y));
    v_k = i_blob.w * (1.0 - clamp((d - u_fog.x) / max(u_fog.y - u_fog.x, 1e-3), 0.0, 1.0));
}
"""

FRAG_BLOB = VERSION + """
in vec2 v_uv; in float v_k;
out vec4 f_color;
void main() {
    // no discard: past the rim (r >= 1) the smoothstep leaves nothing to blend
    f_color = vec4(0.0, 0.0, 0.0, v_k * (1.0 - smoothstep(0.35, 1.0, length(v_uv))));
}
"""


# ------------------------------------------------------------------ far-field impostors (low)
# A horde's far instances are one quad each, facing the eye about the vertical, showing a
# picture of the figure baked once per pose bank (``_impostor``): IMPOSTOR_ANGLES views about
# it for every (nearest) bank frame, each picture's base colour (rgb, alpha: covered) and its
# figure-local normal. The quad's fragments light that normal as the mesh's would: a few
# fragments and two triangles for the 60 triangles and 40 skinned vertices of the coarsest mesh.
VERT_BAKE = VERSION + """
in vec3 in_pos; in vec3 in_normal; in vec4 in_joints; in vec4 in_weights; in vec3 in_color;
uniform sampler2D u_bones;   // the bank (a row a frame)
uniform int u_frames;        // bank frames
uniform ivec2 u_grid;        // views about the figure (columns), atlas frames (rows)
uniform vec4 u_cell;         // half width, bottom, top (m), reach (m) for the depth
out vec3 v_lp; out vec3 v_n; out vec4 v_color;

mat4 bone(int j, int row) {
    return mat4(texelFetch(u_bones, ivec2(j * 4 + 0, row), 0),
                texelFetch(u_bones, ivec2(j * 4 + 1, row), 0),
                texelFetch(u_bones, ivec2(j * 4 + 2, row), 0),
                texelFetch(u_bones, ivec2(j * 4 + 3, row), 0));
}

void main() {
    // one instance a picture: view k (columns) of atlas frame r (rows)
    int k = gl_InstanceID % u_grid.x;
    int r = gl_InstanceID / u_grid.x;
    int row = int(floor(float(r) * float(u_frames) / float(u_grid.y) + 0.5)) % u_frames;
    ivec4 jn = ivec4(in_joints + 0.5);
    mat4 skin = in_weights.x * bone(jn.x, row);
    if (in_weights.y > 0.0) skin += in_weights.y * bone(jn.y, row);
    if (in_weights.z > 0.0) skin += in_weights.z * bone(jn.z, row);
    if (in_weights.w > 0.0) skin += in_weights.w * bone(jn.w, row);
    vec3 lp = (skin * vec4(in_pos, 1.0)).xyz;
    v_lp = lp;
    v_n = mat3(skin) * in_normal;
    v_color = vec4(in_color, 1.0);
    // seen from d = (sin t, 0, cos t) about the figure, orthographic: right (cos t, 0, -sin t)
    float t = 6.283185307179586 * float(k) / float(u_grid.x);
    vec3 d = vec3(sin(t), 0.0, cos(t));
    vec3 right = vec3(d.z, 0.0, -d.x);
    float x = dot(lp, right) / u_cell.x;
    float y = (lp.y - u_cell.y) / (u_cell.z - u_cell.y) * 2.0 - 1.0;
    gl_Position = vec4((float(k) + 0.5 + 0.5 * x) / float(u_grid.x) * 2.0 - 1.0,
                       (float(r) + 0.5 + 0.5 * y) / float(u_grid.y) * 2.0 - 1.0,
                       -dot(lp, d) / u_cell.w, 1.0);
}
"""

FRAG_BAKE = VERSION + """
in vec3 v_lp; in vec3 v_n; in vec4 v_color;
layout(location = 0) out vec4 f_color;
layout(location = 1) out vec4 f_normal;
void main() {
#ifdef FLAT_NORMALS
    vec3 n = normalize(cross(dFdx(v_lp), dFdy(v_lp)));
#else
    vec3 n = normalize(v_n);
    if (!gl_FrontFacing) n = -n;
#endif
    f_color = vec4(v_color.rgb, 1.0);
    f_normal = vec4(n * 0.5 + 0.5, 1.0);
}
"""

VERT_IMPOSTOR = VERSION + VERT_FOG + """
in vec2 in_xz;     // the quad's corner, -1..1
in vec4 i_place;   // x, y, z (m), heading (rad)
in vec4 i_tint;    // rgb multiplier, phase 0..1
in uint i_row;
in uint i_id;
uniform float u_facing;
uniform ivec2 u_grid;      // views, atlas frames
uniform vec4 u_cell;       // half width, bottom, top (m)
uniform sampler2D u_rects; // each picture's covered rectangle: x0, x1, y0, y1 (m)
uniform mat4 u_vp;
#ifndef FOG_VERTEX
uniform vec3 u_eye;
#endif
out vec2 v_uv; out vec3 v_wp; flat out vec2 v_cs; flat out vec3 v_tint; flat out uint v_id;
#ifdef LIGHT_DIFFUSE
uniform vec3 u_sun_dir;
flat out vec3 v_sun_local;  // the sun in the figure's frame
#endif
void main() {
    float a = i_place.w + u_facing;
    float c = cos(a), s = sin(a);
#ifdef LIGHT_DIFFUSE
    v_sun_local = vec3(c * u_sun_dir.x - s * u_sun_dir.z, u_sun_dir.y,
                       s * u_sun_dir.x + c * u_sun_dir.z);
#endif
    vec2 e = u_eye.xz - i_place.xz;
    e = dot(e, e) > 1e-12 ? normalize(e) : vec2(0.0, 1.0);
    // the eye's direction in the figure's frame (the heading's rotation undone): its view
    float lx = c * e.x - s * e.y, lz = s * e.x + c * e.y;
    float t = atan(lx, lz) / 6.283185307179586;
    int k = int(floor(t * float(u_grid.x) + 0.5)) % u_grid.x;
    if (k < 0) k += u_grid.x;
    int r = int(floor(fract(i_tint.w) * float(u_grid.y) + 0.5)) % u_grid.y;
    vec3 right = vec3(e.y, 0.0, -e.x);
    // only the rectangle the picture covers (x along the view's right, y up; m)
    vec4 box = texelFetch(u_rects, ivec2(k, r), 0);
    float x = mix(box.x, box.y, in_xz.x * 0.5 + 0.5);
    float y = mix(box.z, box.w, in_xz.y * 0.5 + 0.5);
    vec3 wp = i_place.xyz + right * x + vec3(0.0, y, 0.0);
    v_uv = vec2((float(k) + 0.5 + 0.5 * x / u_cell.x) / float(u_grid.x),
                (float(r) + (y - u_cell.y) / (u_cell.z - u_cell.y)) / float(u_grid.y));
    v_wp = wp;
    v_cs = vec2(c, s);
    v_tint = i_tint.rgb;
    v_id = i_id;
    gl_Position = u_vp * vec4(wp, 1.0);
    fog_vertex(wp);
    if (dot(i_place.xyz, i_place.xyz) > 1.0e10)  // parked: drawn by nobody
        gl_Position = vec4(0.0, 0.0, 2.0, 0.0);
}
"""

FRAG_IMPOSTOR = VERSION + LIGHTING + """
uniform sampler2D u_atlas;     // base colour, alpha: covered
uniform sampler2D u_atlas_n;   // figure-local normal * 0.5 + 0.5
in vec2 v_uv; in vec3 v_wp; flat in vec2 v_cs; flat in vec3 v_tint;
#ifdef LIGHT_DIFFUSE
flat in vec3 v_sun_local;
#endif
out vec4 f_color;
void main() {
    vec4 b = texture(u_atlas, v_uv);
    if (b.a < 0.5) discard;
    vec3 nl = texture(u_atlas_n, v_uv).xyz * 2.0 - 1.0;
#if defined(LIGHT_DIFFUSE) && !defined(SHADOW_PCF3) && !defined(SHADOW_TAP1)
    // shade()'s diffuse light in the figure's frame (the sun turned into it once a quad):
    // the heading turns about the vertical, so n.y is the world's
    float ndl = max(dot(nl, v_sun_local), 0.0);
    vec3 amb = mix(u_bounce_color, u_sky_color, nl.y * 0.5 + 0.5);
    vec3 c = b.rgb * v_tint * (amb + u_sun_color * ndl);
    f_color = to_srgb(mix(c, u_fog_color, fog_at(v_wp)));
#else
    // the heading's rotation (the horde shader's model matrix) turns it into the world
    vec3 n = normalize(vec3(v_cs.x * nl.x + v_cs.y * nl.z, nl.y, -v_cs.y * nl.x + v_cs.x * nl.z));
    f_color = to_srgb(shade(b.rgb * v_tint, n, v_wp, 0.25));
#endif
}
"""

FRAG_IMPOSTOR_PICK = VERSION + """
uniform sampler2D u_atlas;
in vec2 v_uv; flat in uint v_id;
out uint f_id;
void main() {
    if (texture(u_atlas, v_uv).a < 0.5) discard;
    f_id = v_id;
}
"""


def program_source(vert: str, frag: str, defines=()) -> tuple[str, str]:
    """(vertex, fragment) sources with ``#define NAME`` lines after the version line."""
    head = "".join(f"#define {d}\n" for d in sorted(defines))
    return (vert.replace(VERSION, VERSION + head, 1), frag.replace(VERSION, VERSION + head, 1))
