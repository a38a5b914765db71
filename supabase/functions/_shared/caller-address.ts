// The caller's address, for every function: hosted Supabase sits behind Cloudflare, which sets
// `CF-Connecting-IP` to the address that connected to it, replacing whatever the caller sent,
// while the first `X-Forwarded-For` entry is the caller's own to write. So the address is
// `cf-connecting-ip` and nothing else: checked to be an IP address, IPv4 mapped into IPv6 written
// as IPv4, and null (store nothing) when it is missing or malformed. The local stand-in's gateway
// sets the header from the TCP peer (packages/supabase-stand-in/functions/proxy.mjs).
// See docs/decisions/103-the-callers-address-from-cloudflare-only.md.

/** The caller's address from `cf-connecting-ip`, or null when there is none that is an IP address. */
export function callerAddress(req: Request): string | null {
  const raw = req.headers.get('cf-connecting-ip')?.trim() ?? '';
  const ip = raw.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return isIpv4(ip) || isIpv6(ip) ? ip.toLowerCase() : null;
}

function isIpv4(ip: string): boolean {
  return /^(\d{1,3})(\.\d{1,3}){3}$/.test(ip) && ip.split('.').every((part) => Number(part) <= 255);
}

function isIpv6(ip: string): boolean {
  if (!/^[0-9a-f:.]{2,45}$/i.test(ip) || !ip.includes(':')) return false;
  try {
    new URL(`http://[${ip}]/`); // the WHATWG URL parser is a full IPv6 parser
    return true;
  } catch {
    return false;
  }
}
