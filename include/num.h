/*
 * Rounding without libm.  The commands link nothing but libc: every
 * shared library costs each bsub or bjobs about 90 us of start-up on a
 * small VM (docs/PERFORMANCE.md), and these few calls were all that
 * pulled libm in.  Valid for |x| < 2^62, far beyond any value here.
 */
#ifndef LSF_NUM_H
#define LSF_NUM_H

/* Nearest integer, halves away from zero (llround). */
static inline long long
num_round(long double x)
{
	long long t = (long long)x;	/* truncates toward zero */
	long double f = x - (long double)t;

	if (f >= 0.5L)
		t++;
	else if (f <= -0.5L)
		t--;
	return t;
}

/* Smallest integer not below x (ceil). */
static inline long long
num_ceil(long double x)
{
	long long t = (long long)x;

	return (long double)t < x ? t + 1 : t;
}

/* 1024^e for a small e, positive or negative. */
static inline long double
num_pow1024(int e)
{
	long double v = 1.0L;

	for (; e > 0; e--)
		v *= 1024.0L;
	for (; e < 0; e++)
		v /= 1024.0L;
	return v;
}

#endif
