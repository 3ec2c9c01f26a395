import { formatUserCode, type StartedDeviceAuthorization } from '@latchkey/core';

export interface DeviceAuthorizationResponseBody {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/**
 * RFC 8628 §3.2 (DV-03): the user code as people read it (`WDJB-MJHT`, §6.1); the complete URI
 * carries it without the hyphen, which the page accepts either way (§3.3.1).
 */
export function presentDeviceAuthorization(
  started: StartedDeviceAuthorization,
  verificationUri: string,
): DeviceAuthorizationResponseBody {
  const complete = new URL(verificationUri);
  complete.searchParams.set('user_code', started.userCode);
  return {
    device_code: started.deviceCode,
    user_code: formatUserCode(started.userCode),
    verification_uri: verificationUri,
    verification_uri_complete: complete.toString(),
    expires_in: started.expiresIn,
    interval: started.interval,
  };
}
