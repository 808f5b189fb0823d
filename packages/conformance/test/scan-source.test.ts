import { createScanSource } from '@paperlist/core';
import { definePaperSourceSuite } from '../src/index.js';

definePaperSourceSuite({ name: 'scan (reference)', create: async (papers) => createScanSource(papers) });
