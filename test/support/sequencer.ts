import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that start processes, browsers or servers of their own take the longest. They
 * start first, so that no worker is left running one of them alone at the end of the run.
 * With results of an earlier run (vitest's cache) the base order already puts the longest
 * first; on a clean clone, CI's case, it knows only the files' sizes.
 */
const HEAVY = /[/\\]test[/\\](sim|console|sdk|deploy|cli|faults|docs)[/\\]|[/\\]test[/\\]orders[/\\]crash\.spec\.ts$/;

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const heavy = (f: TestSpecification) => HEAVY.test(f.moduleId);
    return [...sorted.filter(heavy), ...sorted.filter((f) => !heavy(f))];
  }
}
