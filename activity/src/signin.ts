// Signing in as the Embedded App SDK does it: ready(), authorize() for a code, the bot's server exchanges
// it for a token (POST /api/token), authenticate(). Opened outside Discord (no `frame_id` in the address),
// the page runs on the SDK's DiscordSDKMock: `?user=<name>` names the member, so two tabs are two members
// (`make play`'s stand-in for Discord accepts the code `mock:<name>`).
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

export interface Session {
  token: string;
  instanceId: string;
}

async function exchange(code: string): Promise<string> {
  const answer = await fetch("api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.error ?? String(answer.status));
  return body.access_token as string;
}

export async function signIn(): Promise<Session> {
  const config = await (await fetch("api/config")).json();
  const clientId = String(config.client_id);
  const query = new URLSearchParams(location.search);
  const outside = !query.has("frame_id");
  const sdk = outside
    ? new DiscordSDKMock(clientId, query.get("guild_id"), query.get("channel_id"), null)
    : new DiscordSDK(clientId);
  if (sdk instanceof DiscordSDKMock) {
    const user = query.get("user") ?? "alex";
    sdk._updateCommandMocks({ authorize: async () => ({ code: `mock:${user}` }) });
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const token = await exchange(code);
  await sdk.commands.authenticate({ access_token: token });
  return { token, instanceId: sdk.instanceId };
}
