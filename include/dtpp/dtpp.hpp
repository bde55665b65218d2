// Everything of dtpp's aggregation core in one include.
#pragma once

#include "dtpp/agg/aggregation.hpp"
#include "dtpp/agg/joined.hpp"
#include "dtpp/print/aggregation.hpp"
