/**
 * The fetch orval's generated functions call (its `override.mutator`): orval's fetch client builds
 * paths without a host and has no setting for the key, so partners give it a function like this one.
 * It sends the URL exactly as orval built it.
 */
let target = { baseUrl: "", apiKey: "" };

export function configurePartnerFetch(baseUrl: string, apiKey: string): void {
  target = { baseUrl, apiKey };
}

export async function partnerFetch<T>(url: string, options: RequestInit): Promise<T> {
  const headers = new Headers(options.headers);
  headers.set("Authorization", `Bearer ${target.apiKey}`);
  const response = await fetch(`${target.baseUrl}${url}`, { ...options, headers });
  const body = [204, 205, 304].includes(response.status) ? "" : await response.text();
  return { data: body ? JSON.parse(body) : undefined, status: response.status, headers: response.headers } as T;
}
