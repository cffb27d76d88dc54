import { newTestRunId } from './test-env';

export default function globalSetup(): void {
  process.env.SKILLHUB_TEST_RUN ??= newTestRunId();
}
