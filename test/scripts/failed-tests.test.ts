import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { failedTests } from "../../scripts/lib/failed-tests.js";

const directory = mkdtempSync(join(tmpdir(), "failed-tests-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("the failed tests read from a JUnit report", () => {
  it("names each failed case with its file and the first line of its failure, not the passed ones beside it", () => {
    const file = join(directory, "report.xml");
    writeFileSync(
      file,
      `<testsuites><testsuite name="test/a.test.ts">
<testcase classname="test/a.test.ts" name="a &gt; passes" time="0.1"/>
<testcase classname="test/a.test.ts" name="a &gt; passes too" time="0.1">
</testcase>
<testcase classname="test/a.test.ts" name="a &gt; fails &quot;here&quot;" time="0.1">
<failure message="expected 1 to be 2&#10;more" type="AssertionError">AssertionError</failure>
</testcase>
<testcase classname="test/b.test.ts" name="b &gt; errs" time="0.1"><error message="boom" type="Error"/></testcase>
</testsuite></testsuites>`,
    );
    expect(failedTests(file)).toEqual(['test/a.test.ts > a > fails "here": expected 1 to be 2', "test/b.test.ts > b > errs: boom"]);
  });

  it("is empty when there is no report", () => {
    expect(failedTests(join(directory, "none.xml"))).toEqual([]);
  });
});
