// The root README's Express snippet on Express 4, with the embedded sample.
import express from 'express';
import { createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { papersRouter } from '@paperlist/express';

const app = express();
app.use('/api/v1', papersRouter({ source: createMemorySource(await loadSamplePapers()) }));
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
