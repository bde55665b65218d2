// dtpp's out-of-line definitions: include this in exactly one translation unit of a program
// (dtpp::dtpp's src/dtpp.cpp does), so that X3's templates and the checker are compiled once.
#pragma once

#include "dtpp/d/check_def.hpp"
#include "dtpp/d/parser_def.hpp"
#include "dtpp/inproc/engine_def.hpp"
#include "dtpp/out/frames_def.hpp"
