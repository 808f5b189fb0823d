/** One request of the mixed load, with the status it must get. */
export interface LoadRequest {
  path: string;
  method?: 'GET' | 'POST';
  status: number;
}

/**
 * The mixed request set of the load and soak runs: pages, searches, orderings, retrieval,
 * and a few bad requests whose 4xx answers are asked for. No HEAD: autocannon's parser
 * waits for the body a HEAD answer's Content-Length announces (the conformance suite covers HEAD).
 */
export const LOAD_REQUESTS: readonly LoadRequest[] = [
  { path: '/api/v1/papers/', status: 200 },
  { path: '/api/v1/papers/?page=7', status: 200 },
  { path: '/api/v1/papers/?q=learning', status: 200 },
  { path: '/api/v1/papers/?q=neural+network&ordering=-published', status: 200 },
  { path: '/api/v1/papers/?q=%22machine+translation%22&page=2', status: 200 },
  { path: '/api/v1/papers/?ordering=title&items_per_page=100&page=12', status: 200 },
  { path: '/api/v1/papers/?ordering=-published,arxiv_id&page=last', status: 200 },
  { path: '/api/v1/papers/?q=transf&items_per_page=20', status: 200 },
  { path: '/api/v1/papers/attention-is-all-you-need/', status: 200 },
  { path: '/api/v1/papers/bert-pre-training-of-deep-bidirectional/', status: 200 },
  { path: '/api/v1/papers/no-such-paper/', status: 404 },
  { path: '/api/v1/papers/?page=9999', status: 404 },
  { path: '/api/v1/papers/?q=%ZZ', status: 400 },
  { path: '/api/v1/papers/', method: 'POST', status: 405 },
];
