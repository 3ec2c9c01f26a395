/**
 * Monaco's web workers, bundled by Vite from `?worker` imports (the packaged
 * `graphiql/setup-workers/vite` entry crashed the Vite 8 dev server in a trial). The GraphQL worker runs
 * validation and completion against the introspected schema off the main thread.
 */
import type {} from 'monaco-editor'; // declares window.MonacoEnvironment
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import GraphQLWorker from 'monaco-graphql/esm/graphql.worker.js?worker';

window.MonacoEnvironment = {
  getWorker(_workerId, label) {
    if (label === 'graphql') return new GraphQLWorker();
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};
