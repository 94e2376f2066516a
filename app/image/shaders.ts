// GLSL ES 3.0 sources of the preview renderer: one full-screen triangle pair; the fragment shader
// grades through the LUT (per-code input table, then the cube tetrahedrally, like the WASM core, so
// both paths agree within 2/255) and paints zebra stripes on the zebra working grid (320 px wide,
// like the CPU overlay).

export const VERTEX_SHADER = `#version 300 es
in vec2 position;
out vec2 uv;
void main() {
  // uv (0,0) is the picture's top-left texel: textures are uploaded top row first, without a flip.
  uv = vec2(position.x * 0.5 + 0.5, 0.5 - position.y * 0.5);
  gl_Position = vec4(position, 0.0, 1.0);
}
`;

export const FRAGMENT_SHADER = `#version 300 es
precision highp float;
precision highp sampler2D;
precision highp sampler3D;

uniform sampler2D frame;
uniform sampler3D lut;
uniform sampler2D lutInput; // 256×1: per input code, the cube's grid position 0..1 (3D) or the output (1D)
uniform int lutMode;        // 0 off, 1 a 1D LUT, 3 a 3D LUT
uniform float lutSize;
uniform float intensity;

uniform bool zebraOn;
uniform vec2 zebraGrid;    // working width and height in cells
uniform float zebraHigh;   // 256 turns the high side off
uniform float zebraLow;    // -1 turns the low side off
uniform float zebraPeriod;
uniform float zebraPhase;
uniform float zebraOpacity;
uniform vec3 zebraHighColour;
uniform vec3 zebraLowColour;

in vec2 uv;
out vec4 colour;

// Grid point i sits at its texel centre: the half-texel mapping (i + 0.5) / N of protocols.md §3.
vec3 corner(vec3 i) {
  return texture(lut, (i + 0.5) / lutSize).rgb;
}

// Each channel's entry of the input table, linear between the two codes around it (exact at the
// codes of an 8-bit frame, where the shader samples it).
vec3 inputFor(vec3 c) {
  vec3 p = clamp(c, 0.0, 1.0) * 255.0;
  vec3 lo = min(floor(p), 254.0);
  vec3 f = p - lo;
  ivec3 i = ivec3(lo);
  vec3 a = vec3(texelFetch(lutInput, ivec2(i.r, 0), 0).r, texelFetch(lutInput, ivec2(i.g, 0), 0).g, texelFetch(lutInput, ivec2(i.b, 0), 0).b);
  vec3 b = vec3(texelFetch(lutInput, ivec2(i.r + 1, 0), 0).r, texelFetch(lutInput, ivec2(i.g + 1, 0), 0).g, texelFetch(lutInput, ivec2(i.b + 1, 0), 0).b);
  return mix(a, b, f);
}

// Tetrahedral interpolation at grid position t (0..1 per axis) with the same cell choice as the
// WASM core: the upper cell index is capped at N - 2, so t = 1 uses the last cell with fraction 1.
vec3 cube(vec3 t) {
  vec3 p = t * (lutSize - 1.0);
  vec3 base = min(floor(p), vec3(lutSize - 2.0));
  vec3 f = p - base;
  vec3 s1;
  vec3 s2;
  vec3 w;
  if (f.r >= f.g && f.g >= f.b) { s1 = vec3(1, 0, 0); s2 = vec3(1, 1, 0); w = f.rgb; }
  else if (f.r >= f.g && f.r >= f.b) { s1 = vec3(1, 0, 0); s2 = vec3(1, 0, 1); w = f.rbg; }
  else if (f.r >= f.g) { s1 = vec3(0, 0, 1); s2 = vec3(1, 0, 1); w = f.brg; }
  else if (f.r >= f.b) { s1 = vec3(0, 1, 0); s2 = vec3(1, 1, 0); w = f.grb; }
  else if (f.g >= f.b) { s1 = vec3(0, 1, 0); s2 = vec3(0, 1, 1); w = f.gbr; }
  else { s1 = vec3(0, 0, 1); s2 = vec3(0, 1, 1); w = f.bgr; }
  return corner(base) * (1.0 - w.x) + corner(base + s1) * (w.x - w.y) + corner(base + s2) * (w.y - w.z) + corner(base + 1.0) * w.z;
}

vec3 grade(vec3 c) {
  vec3 x = inputFor(c);
  return mix(c, lutMode == 3 ? cube(x) : x, intensity);
}

void main() {
  vec3 source = texture(frame, uv).rgb;
  vec3 result = lutMode != 0 ? grade(source) : source;
  if (zebraOn) {
    // One luma per working-grid cell, sampled at the cell centre (the CPU path downscales the frame
    // to the same grid), with the core's fixed-point Rec. 709 weights and rounding.
    vec2 cell = min(floor(uv * zebraGrid), zebraGrid - 1.0);
    vec3 sampled = floor(texture(frame, (cell + 0.5) / zebraGrid).rgb * 255.0 + 0.5);
    float luma = floor((dot(sampled, vec3(13933.0, 46871.0, 4732.0)) + 32768.0) / 65536.0);
    bool high = luma >= zebraHigh;
    bool low = luma <= zebraLow;
    float stripe = mod(cell.x + cell.y + zebraPhase, zebraPeriod);
    if ((high || low) && stripe < floor(zebraPeriod / 2.0)) {
      result = mix(result, high ? zebraHighColour : zebraLowColour, zebraOpacity);
    }
  }
  colour = vec4(clamp(result, 0.0, 1.0), 1.0);
}
`;
