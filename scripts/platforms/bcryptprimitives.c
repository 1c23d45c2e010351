/*
 * bcryptprimitives.dll for Wine 8: Go 1.22 and later take their random
 * numbers from ProcessPrng in bcryptprimitives.dll (Windows 10 and later),
 * which Wine 8.0 (Debian 12's wine64) does not provide, so every Go Windows
 * binary dies at start with "bcryptprimitives.dll not found". This DLL
 * exports ProcessPrng over RtlGenRandom (advapi32's SystemFunction036),
 * which Wine has. The Windows lane (internal/integration/wine_test.go)
 * builds it with Debian's x86_64-w64-mingw32-gcc and copies it into the
 * system32 of a scratch Wine prefix; it is never shipped.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	/* RtlGenRandom takes a ULONG length. */
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
