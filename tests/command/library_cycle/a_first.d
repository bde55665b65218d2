/* With c_third.d and b_second.d, a circle: none of them can be read first. */
#pragma D depends_on library b_second.d
