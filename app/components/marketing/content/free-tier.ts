// The free quota (spec §1, §9), in its own module so pages that only quote it don't load the pricing tables.
export const FREE_API_CALLS = 100;
