export { serviceModules, WORKER_MODULES } from './service.modules';
