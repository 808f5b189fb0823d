import { definePaperSourceSuite } from '@paperlist/conformance';
import { newPGlite, sourceWith } from './helpers.js';

// The shared PaperSource suite on PGlite: always runs, no server needed. Relevance is the
// core's own (exactRelevance left at its default, true).
definePaperSourceSuite({
  name: 'postgres on PGlite',
  async create(papers, annotations) {
    const db = await newPGlite();
    const source = await sourceWith(db, 'paperlist', papers, {}, annotations);
    return Object.assign(source, { close: () => db.close() });
  },
});
