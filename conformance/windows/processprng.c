/*
 * bcryptprimitives.dll for Wine 8.0: ProcessPrng only.
 *
 * Go's Windows runtime (Go 1.22 and later) draws its random numbers from
 * ProcessPrng, which it loads from bcryptprimitives.dll at start-up and without
 * which it aborts ("bcryptprimitives.dll not found"). Debian 12's Wine 8.0 does
 * not ship that DLL (Wine added it in 9.x), so no Go binary, the Windows harness
 * among them, starts under it. This DLL exports ProcessPrng and forwards to
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has; setup-wine.sh builds
 * it with mingw-w64 and copies it into the prefix's system32.
 *
 * ProcessPrng always returns TRUE on Windows; so does this one unless Wine's
 * RtlGenRandom fails, which the Go runtime treats as fatal.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData)
{
	while (cbData > 0) {
		ULONG n = cbData > 0x40000000 ? 0x40000000 : (ULONG)cbData;
		if (!SystemFunction036(pbData, n))
			return FALSE;
		pbData += n;
		cbData -= n;
	}
	return TRUE;
}
