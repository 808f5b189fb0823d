import { createScanSource } from '@paperlist/core';
import { definePaperSourceSuite } from '../src/index.js';

definePaperSourceSuite({ name: 'scan (reference)', create: async (papers, annotations) => createScanSource(papers, annotations === undefined ? {} : { annotations }) });
