/**
 * The command line of `npm run mock`: Prism's mock of the published sandbox document, on port 4010
 * and without CORS headers unless the caller says otherwise. Anything else is Prism's own option,
 * passed on as given (`npm run mock -- -p 4011 -d`).
 */
import { SANDBOX_BUNDLE_PATHS } from "./bundle-paths.js";

export const DEFAULT_MOCK_PORT = 4010;

const givesOption = (args: readonly string[], short: string | undefined, long: string) =>
  args.some((arg) => arg === long || arg.startsWith(`${long}=`) || (short !== undefined && (arg === short || arg.startsWith(`${short}=`))));

export function prismMockArguments(args: readonly string[]): string[] {
  return [
    "mock",
    SANDBOX_BUNDLE_PATHS.full,
    ...(givesOption(args, "-p", "--port") ? [] : ["-p", String(DEFAULT_MOCK_PORT)]),
    ...(givesOption(args, undefined, "--cors") ? [] : ["--cors=false"]),
    ...args,
  ];
}
