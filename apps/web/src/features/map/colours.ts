/**
 * The map's colours, in a module of their own so the browser test can read the points' colour
 * without loading the world outline.
 */

/** The points' colour as red, green, blue (red-600): the browser test reads it back from the canvas. */
export const POINT_RGB = [220, 38, 38] as const;

/** The ring around each dot when there are few enough to ring (red-900), so dots stand out on land. */
export const RING_RGB = [127, 29, 29] as const;

export const SEA_COLOUR = '#eff6ff';
export const LAND_COLOUR = '#e2e8f0';
export const COAST_COLOUR = '#94a3b8';
