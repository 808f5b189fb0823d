// A CommonJS app: require() gets the packages' CJS builds.
const express = require('express');
const { createMemorySource } = require('@paperlist/core');
const { loadSamplePapers } = require('@paperlist/core/sample');
const { papersRouter } = require('@paperlist/express');

loadSamplePapers().then((papers) => {
  const app = express();
  app.use('/api/v1', papersRouter({ source: createMemorySource(papers) }));
  const server = app.listen(0, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}`);
  });
});
