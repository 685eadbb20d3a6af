export { startWorkerFile } from './worker-file';
