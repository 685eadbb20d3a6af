import { deleteRecordedDeployments } from './distributed-infra';

// Each e2e file (jest setupFilesAfterEnv): once its own hooks have stopped its services,
// the deployments it started on the shared Kafka and Elasticsearch are deleted.
afterAll(() => deleteRecordedDeployments(), 60_000);
