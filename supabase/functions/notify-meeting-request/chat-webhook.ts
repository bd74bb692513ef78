/** Posts one message to a Slack- or Teams-style incoming webhook (`{ "text": … }`). */
export async function postChatMessage(
  url: string,
  text: string,
  timeoutMs = 10_000,
): Promise<void> {
  let response: Response;
  // The URL is a credential (anyone holding it can post): errors name its host only.
  const host = new URL(url).host;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new Error(
      `chat webhook at ${host} not reached: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const answer = (await response.text()).slice(0, 200);
  if (!response.ok)
    throw new Error(`chat webhook at ${host} answered HTTP ${response.status} ${answer}`.trim());
}
