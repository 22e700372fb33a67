/* rtc.c - the CMOS real-time clock, read once at boot for CLOCK_REALTIME. */
#include <arch/arch.h>
#include <arch/io.h>

static uint8_t cmos(uint8_t reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static unsigned bcd(uint8_t v, int binary)
{
	return binary ? v : (v & 0x0F) + (v >> 4) * 10;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static uint64_t days_from_civil(int y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return (uint64_t)(era * 146097 + (int)doe - 719468);
}

uint64_t arch_rtc_seconds(void)
{
	uint8_t s, mi, h, d, mo, y, regb;

	/* Wait out an update in progress, then read twice until stable. */
	for (int i = 0; i < 100000 && (cmos(0x0A) & 0x80); i++)
		;
	do {
		s = cmos(0x00);
		mi = cmos(0x02);
		h = cmos(0x04);
		d = cmos(0x07);
		mo = cmos(0x08);
		y = cmos(0x09);
	} while (s != cmos(0x00));
	regb = cmos(0x0B);
	if (y == 0xFF || mo == 0 || d == 0)
		return 0;	/* no RTC answering */
	int bin = regb & 0x04;
	unsigned hour = bcd(h & 0x7F, bin);

	if (!(regb & 0x02) && (h & 0x80))
		hour = (hour % 12) + 12;	/* 12-hour mode, PM */
	unsigned year = bcd(y, bin) + 2000;

	return days_from_civil((int)year, bcd(mo, bin), bcd(d, bin)) * 86400 +
	       hour * 3600 + bcd(mi, bin) * 60 + bcd(s, bin);
}
