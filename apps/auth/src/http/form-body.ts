import express from 'express';

/**
 * The pages' forms: url-encoded, small, flat. With `extended: false` a repeated field is an
 * array and `a[b]=1` stays a flat key; the schemas accept only single strings.
 */
export const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
