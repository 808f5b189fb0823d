import { createFetchHandler } from '@paperlist/core';
import { defineHttpConformanceSuite, serveFetchHandler } from '../src/index.js';

defineHttpConformanceSuite({
  name: 'core fetch handler over node:http',
  start: (options) => serveFetchHandler(createFetchHandler(options)),
  unmatchedPaths: 'not-found-json',
});
