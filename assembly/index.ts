// The image core's exports: memory management, the .cube parser, LUT grading, histogram and zebra.
export { alloc, free } from "./memory";
export { parseCube, MIN_3D_SIZE, MAX_3D_SIZE, MIN_1D_SIZE, MAX_1D_SIZE, DEFAULT_3D_SIZE, RESULT_SLOTS } from "./cube-parser";
export { prepareLut3d, applyLut3d, mixLut3d, prepareLut1d, applyLut1d, prepareShaper, LUT3D_HEADER_BYTES, LUT1D_TABLE_BYTES, SHAPER_INPUTS_BYTES } from "./lut";
export { histogram, histogramLevels } from "./histogram";
export { zebraMask, zebraOverlay } from "./zebra";
